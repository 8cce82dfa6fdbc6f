import { crc32, deflateRawSync } from "node:zlib";

/** A zip archive holding one file of `size` zeros, deflated: a few KB that would inflate to `size`. */
export function zipBomb(size: number): Uint8Array {
  const name = Buffer.from("zeros.txt");
  const plain = Buffer.alloc(size);
  const data = deflateRawSync(plain, { level: 9 });
  const crc = crc32(plain);
  // The local and the central header hold the same fields, the central one two bytes later.
  const entry = (signature: number, length: number, at: number) => {
    const header = Buffer.alloc(length);
    header.writeUInt32LE(signature, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, at - 2);
    header.writeUInt16LE(8, at);
    header.writeUInt32LE(crc, at + 6);
    header.writeUInt32LE(data.length, at + 10);
    header.writeUInt32LE(size, at + 14);
    header.writeUInt16LE(name.length, at + 18);
    return header;
  };
  const local = entry(0x04034b50, 30, 8);
  const central = entry(0x02014b50, 46, 10);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + name.length, 12);
  end.writeUInt32LE(local.length + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, name, end]);
}
