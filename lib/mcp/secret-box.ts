// No "server-only" here: server.ts (run by tsx, outside Next's react-server condition) builds the
// runtime that holds this box and the MCP pool, and that import would throw there.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** Sealed values start with their format, so a later format can be told apart from this one. */
const FORMAT = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A stored secret that this node's key cannot open: the key changed, or the row was altered. */
export class SecretUnreadableError extends Error {
  constructor() {
    super("its stored secrets can't be decrypted with this node's key (ENCRYPTION_KEY, or AUTH_SECRET when it is unset, has changed): enter them again");
    this.name = "SecretUnreadableError";
  }
}

/** Encrypts secrets for the database and opens them again; see createSecretBox. */
export interface SecretBox {
  /** `context` (e.g. "<serverId>:headers") is authenticated with the value: a ciphertext copied to another row or field does not open. */
  seal(values: Record<string, string>, context: string): string;
  open(sealed: string, context: string): Record<string, string>;
}

/**
 * AES-256-GCM with a key derived by HKDF from `material` (ENCRYPTION_KEY, else AUTH_SECRET): the
 * session-signing secret itself is never used as a cipher key, and every node sharing the
 * material opens what any of them sealed.
 */
export function createSecretBox(material: string): SecretBox {
  const key = Buffer.from(hkdfSync("sha256", material, "chorus", "chorus secrets at rest v1", 32));
  return {
    seal(values, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv).setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(JSON.stringify(values), "utf8"), cipher.final()]);
      return [FORMAT, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
    },
    open(sealed, context) {
      const [format, iv, tag, body] = sealed.split(".");
      if (format !== FORMAT || iv === undefined || tag === undefined || body === undefined) throw new SecretUnreadableError();
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), { authTagLength: TAG_BYTES }).setAAD(Buffer.from(context));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        const text = Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
        return JSON.parse(text) as Record<string, string>;
      } catch {
        throw new SecretUnreadableError();
      }
    },
  };
}
