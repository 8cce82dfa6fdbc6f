import { createDecipheriv, createECDH, createHmac, randomBytes, type ECDH } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A browser's side of a subscription: its P-256 key pair and auth secret, as PushSubscription.toJSON() gives them. */
export class PushKeys {
  readonly ecdh: ECDH = createECDH("prime256v1");
  readonly auth = randomBytes(16);

  constructor() {
    this.ecdh.generateKeys();
  }

  toJSON() {
    return { p256dh: this.ecdh.getPublicKey().toString("base64url"), auth: this.auth.toString("base64url") };
  }

  /** The payload of an aes128gcm push (RFC 8188 and 8291), as the browser decrypts it. */
  decrypt(body: Buffer): string {
    const salt = body.subarray(0, 16);
    const idLength = body[20]!;
    const senderKey = body.subarray(21, 21 + idLength);
    const record = body.subarray(21 + idLength);
    const hmac = (key: Buffer, ...data: Buffer[]) => createHmac("sha256", key).update(Buffer.concat(data)).digest();
    const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), this.ecdh.getPublicKey(), senderKey]);
    const ikm = hmac(hmac(this.auth, this.ecdh.computeSecret(senderKey)), keyInfo, Buffer.from([1]));
    const prk = hmac(salt, ikm);
    const key = hmac(prk, Buffer.from("Content-Encoding: aes128gcm\0"), Buffer.from([1])).subarray(0, 16);
    const nonce = hmac(prk, Buffer.from("Content-Encoding: nonce\0"), Buffer.from([1])).subarray(0, 12);
    const decipher = createDecipheriv("aes-128-gcm", key, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    // The last record ends with its delimiter (2) and zero padding.
    return padded.subarray(0, padded.lastIndexOf(2)).toString("utf8");
  }
}

/**
 * A push service on this machine: records every POST and answers 201, or the status set for a
 * path (410: the subscription is gone).
 */
export class LocalPushService {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly received: ReceivedPush[],
    private readonly statuses: Map<string, number>,
  ) {}

  static async start(): Promise<LocalPushService> {
    const received: ReceivedPush[] = [];
    const statuses = new Map<string, number>();
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const path = request.url ?? "/";
        received.push({ path, headers: request.headers, body: Buffer.concat(chunks) });
        response.writeHead(statuses.get(path) ?? 201).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return new LocalPushService(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received, statuses);
  }

  /** The endpoint of one browser's subscription. */
  endpoint(name: string): string {
    return `${this.url}/push/${name}`;
  }

  answer(name: string, status: number): void {
    this.statuses.set(`/push/${name}`, status);
  }

  to(name: string): ReceivedPush[] {
    return this.received.filter((push) => push.path === `/push/${name}`);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
