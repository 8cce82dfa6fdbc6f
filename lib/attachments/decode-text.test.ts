import { describe, expect, it } from "vitest";
import { decodeText } from "./decode-text";

const utf8 = (text: string) => new TextEncoder().encode(text);

describe("decodeText", () => {
  it("keeps the first characters, without a byte-order mark and with line endings as \\n", () => {
    expect(decodeText(utf8("\uFEFFone\r\ntwo\rthree\n"), 100)).toBe("one\ntwo\nthree\n");
    expect(decodeText(utf8("a\r\n".repeat(1_000)), 10)).toBe("a\na\na\na\na\n");
  });

  it("decodes characters cut between its steps whole, and never keeps half an emoji", () => {
    // Steps of 2 × maxChars bytes: the first ends inside the two-byte é, or the four-byte emoji.
    expect(decodeText(utf8("aéééééé"), 2)).toBe("aé");
    expect(decodeText(utf8("a😀bcdef"), 3)).toBe("a😀");
    expect(decodeText(utf8("a😀bcdef"), 2)).toBe("a");
  });

  it("refuses bytes that are not UTF-8 anywhere in the file, past the part it keeps too", () => {
    expect(decodeText(new Uint8Array([...utf8("fine so far "), 0xc3]), 5)).toBeNull();
    expect(decodeText(new Uint8Array([...utf8("x".repeat(100_000)), 0xff, 0x41]), 10)).toBeNull();
  });
});
