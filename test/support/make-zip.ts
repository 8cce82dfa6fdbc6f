import { crc32, deflateRawSync } from "node:zlib";

export interface ZipFile {
  name: string;
  content: Uint8Array | string;
  /** Entry flags; bit 0 marks the entry as encrypted. */
  flags?: number;
}

/** A zip archive of `files`, each deflated, its central directory declaring their true sizes. */
export function makeZip(files: ZipFile[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.name);
    const plain = Buffer.from(file.content);
    const data = deflateRawSync(plain, { level: 9 });
    const crc = crc32(plain);
    // The local and the central header hold the same fields, the central one two bytes later.
    const entry = (signature: number, length: number, at: number) => {
      const header = Buffer.alloc(length);
      header.writeUInt32LE(signature, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(20, at - 4);
      header.writeUInt16LE(file.flags ?? 0, at - 2);
      header.writeUInt16LE(8, at);
      header.writeUInt32LE(crc, at + 6);
      header.writeUInt32LE(data.length, at + 10);
      header.writeUInt32LE(plain.length, at + 14);
      header.writeUInt16LE(name.length, at + 18);
      return header;
    };
    const local = Buffer.concat([entry(0x04034b50, 30, 8), name, data]);
    const central = entry(0x02014b50, 46, 10);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A zip archive holding one file of `size` zeros, deflated: a few KB that would inflate to `size`. */
export function zipBomb(size: number, name = "zeros.txt"): Uint8Array {
  return makeZip([{ name, content: Buffer.alloc(size) }]);
}
