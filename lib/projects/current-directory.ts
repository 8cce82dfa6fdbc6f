import "server-only";
import { cache } from "react";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";
import { getProjectDirectory, type ProjectDirectory } from "./project-directory";

/**
 * The signed-in person's project directory, read once per request: the app's layout (the sidebar)
 * and its pages (mentions, "Add agent", search filters) ask for it in the same render.
 */
export const getCurrentDirectory = cache(async (): Promise<ProjectDirectory | null> => {
  const user = await requireCurrentUser();
  const { db } = await getRuntime();
  return getProjectDirectory(db.prisma, { userId: user.id });
});
