import { kindOf, type AttachmentKind } from "./attachment-kind";

/** An attachment as clients see it (upload answers, messages). */
export interface AttachmentDto {
  id: string;
  name: string;
  mediaType: string;
  bytes: number;
  kind: AttachmentKind;
  /** Images only. */
  width: number | null;
  height: number | null;
  url: string;
  thumbnailUrl: string | null;
}

export interface AttachmentRow {
  id: string;
  name: string;
  mediaType: string;
  bytes: number;
  width: number | null;
  height: number | null;
  thumbnailKey: string | null;
}

export function toAttachmentDto(row: AttachmentRow): AttachmentDto {
  return {
    id: row.id,
    name: row.name,
    mediaType: row.mediaType,
    bytes: row.bytes,
    kind: kindOf(row.mediaType),
    width: row.width,
    height: row.height,
    url: `/api/attachments/${row.id}`,
    thumbnailUrl: row.thumbnailKey ? `/api/attachments/${row.id}/thumbnail` : null,
  };
}
