import { serveAvatar } from "@/lib/avatars/serve-avatar";

/** A person's picture (a square WebP), for signed-in people; ?v= names the version, cached for good. */
export async function GET(request: Request, { params }: { params: Promise<{ userId: string }> }) {
  return serveAvatar(request, (await params).userId);
}
