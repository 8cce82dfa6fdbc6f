/** One file inside a zip archive, as the archive's central directory declares it. */
export interface ZipEntry {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  /** Bit 0 of the entry's flags: its data is encrypted (a password is needed to inflate it). */
  encrypted: boolean;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const END_LENGTH = 22;
const ENTRY_LENGTH = 46;
// The end record may be followed by a comment of up to 65,535 bytes.
const MAX_COMMENT = 0xffff;

/**
 * The entries of a zip archive, read from its central directory alone: nothing is inflated, so
 * a zip bomb can be measured by what it declares before anything opens it. Null when the bytes are
 * not a zip archive, or its directory is cut short or points outside the file.
 */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEnd(view);
  if (end === null) return null;
  const count = view.getUint16(end + 10, true);
  const size = view.getUint32(end + 12, true);
  const offset = view.getUint32(end + 16, true);
  if (offset + size > end) return null;
  const decoder = new TextDecoder();
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let index = 0; index < count; index += 1) {
    if (at + ENTRY_LENGTH > offset + size || view.getUint32(at, true) !== DIRECTORY_ENTRY) return null;
    const nameLength = view.getUint16(at + 28, true);
    const next = at + ENTRY_LENGTH + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (next > offset + size) return null;
    entries.push({
      name: decoder.decode(bytes.subarray(at + ENTRY_LENGTH, at + ENTRY_LENGTH + nameLength)),
      encrypted: (view.getUint16(at + 8, true) & 1) === 1,
      compressedSize: view.getUint32(at + 20, true),
      // Zip64 archives write 0xFFFFFFFF here: read as it is, it is past any cap, which is right for
      // the small archives this is for.
      uncompressedSize: view.getUint32(at + 24, true),
    });
    at = next;
  }
  return entries;
}

/** The end-of-central-directory record's offset, searched backwards over a possible comment. */
function findEnd(view: DataView): number | null {
  const last = view.byteLength - END_LENGTH;
  for (let at = last; at >= 0 && at >= last - MAX_COMMENT; at -= 1) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) return at;
  }
  return null;
}
