import { describe, expect, it } from "vitest";
import { makePdf, makePdfPages, textOperators } from "@/test/support/make-pdf";
import { readEnv } from "@/lib/config/env";
import { extractionLimits, extractText as extractWithLimits } from "./extract-text";

const bytes = (text: string) => new TextEncoder().encode(text);
const configured = extractionLimits(readEnv({ NODE_ENV: "test" }));
const extractText = (name: string, content: Uint8Array, limits = configured) => extractWithLimits(name, content, limits);
const pages = (...texts: string[][]) => makePdfPages(texts.map((page) => ({ operators: textOperators(page) })));
// Lines of 40 characters: a longer one would run off the page, and pdf.js drops what is off it.
const lines = (count: number, char: string) => Array.from({ length: count }, () => char.repeat(40));

describe("extractText", () => {
  it("reads markdown and text as UTF-8, and the text layer of a PDF", async () => {
    expect(await extractText("Policy.md", bytes("# Leave\r\n\r\nAnnual leave is 25 days."))).toEqual({ text: "# Leave\n\nAnnual leave is 25 days.", mediaType: "text/markdown" });
    expect((await extractText("notes.TXT", bytes("plain résumé"))).text).toBe("plain résumé");
    const pdf = await extractText("HR Policy 2025.pdf", makePdf(["Annual leave entitlement is 25 days.", "Carry-over is 5 days."]));
    expect(pdf.mediaType).toBe("application/pdf");
    expect(pdf.text).toContain("Annual leave entitlement is 25 days.");
  });

  it("refuses empty, unknown, binary, non-UTF-8 and broken files with the reason", async () => {
    await expect(extractText("empty.txt", new Uint8Array())).rejects.toThrow("empty.txt is empty.");
    await expect(extractText("photo.png", bytes("x"))).rejects.toThrow(/only .md, .txt and .pdf/);
    await expect(extractText("disguised.txt", new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3, 0, 0]))).rejects.toThrow(/looks like a binary file/);
    await expect(extractText("latin1.txt", new Uint8Array([0x63, 0x61, 0x66, 0xe9]))).rejects.toThrow(/not UTF-8/);
    await expect(extractText("fake.pdf", bytes("just text"))).rejects.toThrow(/not a PDF/);
    await expect(extractText("broken.pdf", bytes("%PDF-1.4 garbage"))).rejects.toThrow(/could not be read as a PDF/);
    await expect(extractText("blank.md", bytes("  \n\n "))).rejects.toThrow(/contains no text/);
  });

  it("refuses files over 10 MB", async () => {
    await expect(extractText("big.txt", new Uint8Array(10 * 1024 * 1024 + 1).fill(97))).rejects.toMatchObject({ code: "payload_too_large" });
  });

  it("reads a PDF page by page, pages a blank line apart", async () => {
    expect((await extractText("two pages.pdf", pages(["One.", "Uno."], ["Two."]))).text).toBe("One.\nUno.\n\nTwo.");
  });

  it("refuses more text than the character cap, or more pages than the page cap, saying what to do", async () => {
    const small = { ...configured, maxChars: 1_000, maxPages: 2 };
    expect((await extractText("exact.txt", bytes("abcd\r\n".repeat(200)), small)).text).toHaveLength(1_000);
    await expect(extractText("notes.txt", bytes("a".repeat(1_001)), small)).rejects.toThrow("notes.txt has more than 1,000 characters of text; split it and upload the parts.");
    await expect(extractText("notes.md", bytes("é".repeat(2_001)), small)).rejects.toMatchObject({ code: "payload_too_large" });
    await expect(extractText("handbook.pdf", pages(["One."], ["Two."], ["Three."]), small)).rejects.toThrow("handbook.pdf has more than 2 pages (3); split it and upload the parts.");
    await expect(extractText("long page.pdf", pages(lines(30, "x")), small)).rejects.toThrow("long page.pdf has more than 1,000 characters of text");
    await expect(extractText("two halves.pdf", pages(lines(15, "y"), lines(15, "z")), small)).rejects.toThrow("two halves.pdf has more than 1,000 characters of text");
  });

  it("refuses a PDF whose read passes its time or memory limit", async () => {
    const pdf = makePdf(["Annual leave entitlement is 25 days."]);
    await expect(extractText("slow.pdf", pdf, { ...configured, timeoutMs: 1 })).rejects.toThrow("slow.pdf took too long to read (over 0.001 seconds)");
    await expect(extractText("big.pdf", pdf, { ...configured, memoryMb: 4 })).rejects.toThrow("big.pdf is too large to read (it needs more than 4 MB of memory)");
  });
});
