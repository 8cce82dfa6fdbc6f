import { jsonResponse } from "@/lib/http/json-response";
import { getProjectDirectory } from "@/lib/projects/project-directory";
import { requireApiUser } from "@/lib/session/api-user";

/** The people and agents of the user's project (pickers, @mention completion). */
export async function GET(request: Request) {
  return jsonResponse("directory", async () => {
    const { runtime, user } = await requireApiUser(request);
    return getProjectDirectory(runtime.db.prisma, { userId: user.id });
  });
}
