import { serveAttachment } from "@/lib/attachments/serve-attachment";

/** An image's thumbnail (WebP), on the same terms as the file. */
export async function GET(request: Request, { params }: { params: Promise<{ attachmentId: string }> }) {
  return serveAttachment(request, (await params).attachmentId, true);
}
