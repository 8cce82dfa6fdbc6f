import { AppError } from "@/lib/errors/app-error";
import type { SessionUser } from "./session-user";

/** Admin work (agent configuration) is for admins only; members and debug users get the same forbidden error. */
export function assertAdmin(actor: Pick<SessionUser, "role">): void {
  if (actor.role !== "admin") throw new AppError("forbidden", "Only admins can do this. Ask an admin of your project.");
}
