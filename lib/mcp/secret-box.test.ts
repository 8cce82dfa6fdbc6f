import { describe, expect, it } from "vitest";
import { createSecretBox, SecretUnreadableError } from "./secret-box";

const material = "a-secret-of-at-least-thirty-two-characters";
const values = { authorization: "Bearer s3cret", "x-team": "🦊 ops" };

describe("secret box (AES-256-GCM, HKDF key)", () => {
  it("opens what it sealed, and seals the same values differently each time", () => {
    const box = createSecretBox(material);
    const sealed = box.seal(values, "mcp_servers:1:headers");
    expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(sealed).not.toContain("s3cret");
    expect(box.open(sealed, "mcp_servers:1:headers")).toEqual(values);
    expect(box.seal(values, "mcp_servers:1:headers")).not.toBe(sealed);
  });

  it("refuses another key, another row or field, and any altered byte", () => {
    const sealed = createSecretBox(material).seal(values, "mcp_servers:1:headers");
    const refused = (open: () => unknown) => expect(open).toThrow(SecretUnreadableError);
    refused(() => createSecretBox(`${material}!`).open(sealed, "mcp_servers:1:headers"));
    refused(() => createSecretBox(material).open(sealed, "mcp_servers:2:headers"));
    refused(() => createSecretBox(material).open(sealed, "mcp_servers:1:env"));
    const [format, iv, tag, body] = sealed.split(".");
    const flipped = body!.startsWith("A") ? `B${body!.slice(1)}` : `A${body!.slice(1)}`;
    refused(() => createSecretBox(material).open([format, iv, tag, flipped].join("."), "mcp_servers:1:headers"));
    refused(() => createSecretBox(material).open("plain text", "mcp_servers:1:headers"));
  });

  it("says what to do when a secret cannot be opened", () => {
    expect(new SecretUnreadableError().message).toMatch(/ENCRYPTION_KEY, or AUTH_SECRET when it is unset, has changed\): enter them again$/);
  });
});
