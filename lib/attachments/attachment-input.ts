import { z } from "zod";
import { AppError } from "@/lib/errors/app-error";

/** An attachment id from a URL: anything that is not one names no file. */
export function parseAttachmentId(value: string): string {
  const parsed = z.uuid().safeParse(value);
  if (!parsed.success) throw new AppError("not_found", "That file does not exist, or you cannot see it.");
  return parsed.data;
}

/** The file of a multipart upload (field "file"), or a 400 that says how to send one. */
export async function readUploadedFile(request: Request): Promise<File> {
  const form = await request.formData().catch(() => {
    throw new AppError("bad_request", "Send the file as multipart/form-data in a field named file.");
  });
  const file = form.get("file");
  if (!(file instanceof File)) throw new AppError("bad_request", "Choose a file to upload (a field named file).");
  return file;
}
