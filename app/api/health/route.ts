import { getRuntime } from "@/lib/runtime/runtime";
import { checkHealth } from "@/lib/runtime/health";

export const dynamic = "force-dynamic";

export async function GET() {
  const health = await checkHealth(await getRuntime());
  return Response.json(health, { status: health.status === "ok" ? 200 : 503, headers: { "cache-control": "no-store" } });
}
