import { getRuntime } from "@/lib/runtime/runtime";
import { checkHealth, healthHttpStatus } from "@/lib/runtime/health";

export const dynamic = "force-dynamic";

export async function GET() {
  const health = await checkHealth(await getRuntime());
  return Response.json(health, { status: healthHttpStatus(health), headers: { "cache-control": "no-store" } });
}
