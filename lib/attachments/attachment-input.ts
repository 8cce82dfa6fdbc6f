import { z } from "zod";
import { attachmentNotFound } from "./read-attachment";

/** An attachment id from a URL: anything that is not one names no file. */
export function parseAttachmentId(value: string): string {
  const parsed = z.uuid().safeParse(value);
  if (!parsed.success) throw attachmentNotFound();
  return parsed.data;
}
