import { describe, expect, it } from "vitest";
import { z } from "zod";
import { refinePlainText, refineSingleLine } from "./plain-text";

const fileNames = z.string().superRefine(refineSingleLine("File names"));
const messages = z.string().superRefine(refinePlainText("Messages"));
const problem = (schema: z.ZodType, text: string) => schema.safeParse(text).error?.issues[0]?.message;
const code = (char: string) => `U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => String.fromCharCode(from + index));

const C0 = range(0x00, 0x1f);
const C1 = range(0x7f, 0x9f);
const BIDI = ["\u061C", "\u200E", "\u200F", ...range(0x202a, 0x202e), ...range(0x2066, 0x2069)];

describe("refineSingleLine (file names)", () => {
  it.each([...C0, ...C1, ...BIDI, "\u2028", "\u2029"].map((char) => [code(char), char]))("refuses %s with its code and where it is", (shown, char) => {
    const message = problem(fileNames, `Q3${char}report.pdf`);
    expect(message).toMatch(/^File names can't contain control characters \(U\+[0-9A-F]{4}[a-z -]* at character 3\)\. Remove it and try again\.$/i);
    expect(message).toContain(`(${shown}`);
  });

  it("names the characters a person could not tell apart by their code", () => {
    expect(problem(fileNames, "a\tb.md")).toBe("File names can't contain control characters (U+0009 tab at character 2). Remove it and try again.");
    expect(problem(fileNames, "a\r\nb.md")).toContain("(U+000D carriage return at character 2)");
    expect(problem(fileNames, "a\nb.md")).toContain("(U+000A line feed at character 2)");
    expect(problem(fileNames, "invoice\u202Efdp.exe")).toContain("(U+202E right-to-left override at character 8)");
  });

  it("accepts ordinary names in any script, and refuses broken UTF-16", () => {
    for (const name of ["Q3 report (final).pdf", "résumé.md", "تقرير.pdf", "報告書.txt", "notes 🗒.md"]) expect(problem(fileNames, name)).toBeUndefined();
    expect(problem(fileNames, "a\uD800.md")).toContain("unpaired UTF-16 surrogate at character 2");
  });
});

describe("refinePlainText (messages)", () => {
  it("keeps tabs, line breaks and bidi marks, which text people type uses, and refuses other controls as before", () => {
    expect(problem(messages, "line one\r\n\tline two \u202Bمرحبا\u202C")).toBeUndefined();
    expect(problem(messages, "null\u0000byte")).toBe("Messages can't contain control characters (U+0000 at character 5). Remove it and try again.");
  });
});
