import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

// s3rver ships no types; this is the part the tests use.
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: { address: string; port: number; silent: boolean; directory: string; configureBuckets: { name: string }[] }) => S3rverServer;
const S3rver = createRequire(import.meta.url)("s3rver") as S3rverConstructor;

export const LOCAL_S3_BUCKET = "chorus-test";

/**
 * A real S3-compatible server on loopback (s3rver, storing under a temporary directory), and the
 * settings that point Chorus's S3 store at it.
 */
export async function startLocalS3(): Promise<{ env: Record<string, string>; stop(): Promise<void> }> {
  const directory = await mkdtemp(path.join(tmpdir(), "chorus-s3-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: LOCAL_S3_BUCKET }] });
  const { port } = await server.run();
  return {
    env: {
      S3_BUCKET: LOCAL_S3_BUCKET,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
