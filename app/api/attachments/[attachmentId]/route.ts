import { serveAttachment } from "@/lib/attachments/serve-attachment";

/** The file, for the conversation's participants (an unsent upload: its uploader); others 404. */
export async function GET(request: Request, { params }: { params: Promise<{ attachmentId: string }> }) {
  return serveAttachment(request, (await params).attachmentId, false);
}
