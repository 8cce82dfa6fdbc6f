import { z } from "zod";
import { AppError } from "@/lib/errors/app-error";

/** An attachment id from a URL: anything that is not one names no file. */
export function parseAttachmentId(value: string): string {
  const parsed = z.uuid().safeParse(value);
  if (!parsed.success) throw new AppError("not_found", "That file does not exist, or you cannot see it.");
  return parsed.data;
}
