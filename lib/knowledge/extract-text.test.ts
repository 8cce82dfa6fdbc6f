import { describe, expect, it } from "vitest";
import { makePdf } from "@/test/support/make-pdf";
import { extractText } from "./extract-text";

const bytes = (text: string) => new TextEncoder().encode(text);

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
});
