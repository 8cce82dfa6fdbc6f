import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { BlobStore } from "./blob-store";

export interface S3Options {
  bucket: string;
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** Unset: the SDK's own chain (environment, instance role…). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Blobs as objects of an S3-compatible bucket, through the official AWS SDK. */
export function s3BlobStore({ bucket, endpoint, region, forcePathStyle, credentials }: S3Options): BlobStore {
  const client = new S3Client({ endpoint, region, forcePathStyle, credentials });
  return {
    kind: "s3",
    async put(key, bytes, mediaType) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentType: mediaType, ContentLength: bytes.length }));
    },
    async get(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        throw error;
      }
    },
    async delete(key) {
      // S3 answers a delete of a missing key with success.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
  };
}
