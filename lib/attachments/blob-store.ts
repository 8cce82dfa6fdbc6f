import type { Env } from "@/lib/config/env";
import { diskBlobStore } from "./disk-blob-store";
import { s3BlobStore } from "./s3-blob-store";

/** Where attachments' bytes live: a directory under DATA_DIR, or an S3-compatible bucket. */
export interface BlobStore {
  /** "disk" or "s3", for logs and the health of the setup. */
  readonly kind: "disk" | "s3";
  put(key: string, bytes: Uint8Array, mediaType: string): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Uint8Array | null>;
  /** Removes the key; a key already gone is not an error. */
  delete(key: string): Promise<void>;
}

/** The store this node is configured with: S3 when S3_BUCKET is set, else DATA_DIR/attachments. */
export function openBlobStore(env: Pick<Env, "dataDir" | "S3_BUCKET" | "S3_ENDPOINT" | "S3_REGION" | "S3_ACCESS_KEY_ID" | "S3_SECRET_ACCESS_KEY" | "S3_FORCE_PATH_STYLE">): BlobStore {
  if (!env.S3_BUCKET) return diskBlobStore(`${env.dataDir}/attachments`);
  return s3BlobStore({
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    credentials: env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } : undefined,
  });
}
