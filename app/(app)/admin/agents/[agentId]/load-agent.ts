import "server-only";
import { forbidden, notFound } from "next/navigation";
import { AppError } from "@/lib/errors/app-error";
import { agentOfAdmin } from "@/lib/knowledge/upload-document";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";

/** An admin page's agent: members and debug users get 403, an agent outside the admin's project 404. */
export async function loadAdminAgent(agentId: string) {
  const user = await requireCurrentUser();
  if (user.role !== "admin") forbidden();
  const runtime = await getRuntime();
  const agent = await agentOfAdmin(runtime.db.prisma, { actor: user, agentId }).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  });
  return { user, runtime, agent };
}
