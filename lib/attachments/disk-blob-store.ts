import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BlobStore } from "./blob-store";

// Keys are made by Chorus (uuids and a suffix), never from what a person sent; this refuses
// anything else so a bug can never reach outside the directory.
const SAFE_KEY = /^[a-z0-9][a-z0-9-]*(\.[a-z0-9]+)?$/;

/** Blobs as files under `root`, two levels of folders by the key's first characters. */
export function diskBlobStore(root: string): BlobStore {
  const fileOf = (key: string) => {
    if (!SAFE_KEY.test(key)) throw new Error(`Not a blob key: ${JSON.stringify(key)}`);
    return path.join(root, key.slice(0, 2), key);
  };
  return {
    kind: "disk",
    async put(key, bytes) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Written aside and renamed: a reader never sees half a file.
      const partial = `${file}.partial`;
      await writeFile(partial, bytes);
      await rename(partial, file);
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(fileOf(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}
