import path from "node:path";
import { z } from "zod";

const optionalUrl = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .pipe(z.url().optional())
  .optional();

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const flag = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(["1", "true", "0", "false"], { error: "use 1/true or 0/false" }))
  .transform((value) => value === "1" || value === "true");

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  /** Public origin of the app; sockets and auth requests from other origins are refused. */
  APP_URL: optionalUrl,
  DATA_DIR: z.string().default(".data"),
  DATABASE_URL: optionalUrl,
  REDIS_URL: optionalUrl,
  AUTH_SECRET: z.string().min(32, "AUTH_SECRET must be at least 32 characters").optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: optionalUrl,
  /** An OpenAI-compatible embeddings endpoint; without it (and without OPENAI_API_KEY) the offline model embeds. */
  EMBEDDINGS_BASE_URL: optionalUrl,
  EMBEDDINGS_API_KEY: z.string().optional(),
  EMBEDDINGS_MODEL: z.string().trim().min(1).default("text-embedding-3-small"),
  /** The endpoint's vector size; fixed per deployment (npm run reembed after a change). */
  EMBEDDINGS_DIMENSIONS: z.coerce.number().int().min(2).max(4096).default(1536),
  /** A conversation with no message for this long ends its session: episodes are written. */
  SESSION_IDLE_MINUTES: z.coerce.number().min(1).max(7 * 24 * 60).default(30),
  /** How many proxies in front of the app may be believed about the client (X-Forwarded-*). */
  TRUST_PROXY: z.preprocess(
    (value) => (value === "true" ? 1 : value === "false" || value === "" || value === undefined ? 0 : value),
    z.coerce.number({ error: "use a number of proxies (0, 1, 2…) or true/false" }).int().min(0).max(10),
  ),
  /** Pause before each word of the offline model (ms): about the pace of a real model. */
  OFFLINE_MODEL_DELAY_MS: z.coerce.number().int().min(0).max(5_000).default(40),
  /**
   * Background work (agent turns, panels, ingestion, session ends) is leased for this long and
   * renewed every third of it; a node silent for longer loses its jobs to another node.
   */
  JOB_LEASE_MS: z.coerce.number().int().min(500).max(10 * 60_000).default(30_000),
  /** How often each node looks for other nodes' jobs, retries and expired leases. */
  JOB_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  /** Agent turns one node runs at once: they mostly wait on the model, so a waiting call never blocks another room. */
  AGENT_TURNS_PER_NODE: z.coerce.number().int().min(1).max(1_000).default(64),
  /** The OpenAI-compatible provider's calls in flight across all nodes (0: no limit); more wait, queued. */
  PROVIDER_MAX_CONCURRENT: z.coerce.number().int().min(0).max(10_000).default(16),
  /** The provider's requests and tokens per minute across all nodes (0: no limit); past them a turn waits for the next minute. */
  PROVIDER_RPM: z.coerce.number().int().min(0).max(10_000_000).default(0),
  PROVIDER_TPM: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
  /** A model call that streams nothing for this long fails with an attributed "did not answer in time". */
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(10 * 60_000).default(60_000),
  /** Turns waiting or running in one conversation, and asked by one person anywhere: past them a new question is refused with the reason. */
  MAX_QUEUED_TURNS_PER_CONVERSATION: z.coerce.number().int().min(1).max(100_000).default(20),
  MAX_QUEUED_TURNS_PER_PERSON: z.coerce.number().int().min(1).max(100_000).default(10),
  /**
   * The demo accounts have a published password: 1/true seeds them on any database, 0/false
   * never; unset, only in development on the embedded database (see lib/seed/prepare-first-start.ts).
   */
  SEED_DEMO: z
    .string()
    .trim()
    .toLowerCase()
    .transform((value) => (value === "" ? undefined : value))
    .pipe(z.enum(["1", "true", "0", "false"], { error: "use 1/true or 0/false" }).optional())
    .transform((value) => (value === undefined ? undefined : value === "1" || value === "true"))
    .optional(),
  /** open: anyone who reaches the server may create an account; invite: only with an admin's invite link. */
  SIGN_UP: z.enum(["open", "invite"], { error: "use open or invite" }).default("open"),
  /** Days context snapshots are kept (0 = forever); see lib/retention. */
  RETENTION_SNAPSHOT_DAYS: z.coerce.number().int().min(0).max(36_500).default(30),
  /** Days finished agent turns (dispatches) and ended panels' turn records are kept (0 = forever). */
  RETENTION_JOB_DAYS: z.coerce.number().int().min(0).max(36_500).default(14),
  /** A knowledge file with more text than this is refused (about 1,000 dense pages). */
  KNOWLEDGE_MAX_CHARS: z.coerce.number().int().min(1_000).max(50_000_000).default(6_000_000),
  /** A PDF with more pages than this is refused before its text is read. */
  KNOWLEDGE_MAX_PAGES: z.coerce.number().int().min(1).max(100_000).default(2_000),
  /** A PDF whose text takes longer to read is refused; its worker thread is terminated. */
  KNOWLEDGE_READ_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(10 * 60_000).default(20_000),
  /** Memory one PDF read may take (its worker's heap, and the process's growth while it runs). */
  KNOWLEDGE_READ_MEMORY_MB: z.coerce.number().int().min(64).max(16_384).default(512),
  /** Files people attach are kept under DATA_DIR, or in this S3-compatible bucket when set. */
  S3_BUCKET: optionalText,
  /** The object store's address (MinIO, R2, a local S3…); unset, AWS's own for S3_REGION. */
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().trim().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  /** Bucket in the path (https://host/bucket/key), as most S3-compatible stores want; false for virtual-hosted AWS addresses. */
  S3_FORCE_PATH_STYLE: flag.default(true),
  /** The largest file a person may attach. */
  ATTACHMENT_MAX_MB: z.coerce.number().min(0.001).max(1_024).default(25),
  ATTACHMENTS_PER_MESSAGE: z.coerce.number().int().min(1).max(100).default(10),
  /** What one person's files (sent or waiting to be) may take in all. */
  ATTACHMENT_QUOTA_MB: z.coerce.number().min(1).max(10_000_000).default(1_024),
  /** Files uploaded but never sent are removed after this long. */
  ATTACHMENT_UNSENT_HOURS: z.coerce.number().min(0.01).max(24 * 365).default(24),
  /**
   * Key material for secrets kept in the database (MCP servers' headers and environment values);
   * unset, derived from AUTH_SECRET. Changing it leaves those secrets unreadable until re-entered.
   */
  ENCRYPTION_KEY: z.string().min(32, "ENCRYPTION_KEY must be at least 32 characters").optional(),
  /** Connecting to an MCP server and listing its tools fails with the reason past this long. */
  MCP_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** A tool call of an MCP server that has not answered by then fails with the reason. */
  MCP_TOOL_TIMEOUT_MS: z.coerce.number().int().min(100).max(30 * 60_000).default(60_000),
  /** An ask-first tool call not approved or denied by then is not run: the model is told the approval expired. */
  TOOL_APPROVAL_MINUTES: z.coerce.number().min(0.05).max(7 * 24 * 60).default(30),
  /**
   * Web Push (notifications while Chorus is closed): the VAPID key pair (base64url, as
   * `npx web-push generate-vapid-keys` prints it) and a contact for the push services. Unset,
   * generated once into DATA_DIR, except in production with DATABASE_URL, where push is off.
   */
  VAPID_PUBLIC_KEY: optionalText,
  VAPID_PRIVATE_KEY: optionalText,
  VAPID_SUBJECT: optionalText.pipe(z.string().regex(/^(mailto:|https:\/\/)\S+$/, { error: "use a mailto: or https:// address" }).optional()),
});

export type Env = z.infer<typeof envSchema> & {
  dataDir: string;
  /** Origins trusted besides a request's own: APP_URL's, behind a proxy. */
  allowedOrigins: string[];
};

/** Parses process.env once; a bad value stops start-up with the variable's name and the problem. */
export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join("; ")}`);
  }
  const allowedOrigins = parsed.data.APP_URL ? [new URL(parsed.data.APP_URL).origin] : [];
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR), allowedOrigins };
}
