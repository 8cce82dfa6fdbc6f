import { describe, expect, it } from "vitest";
import { parseCsv } from "@/lib/attachments/parse-csv";
import { csvField, usageCsv, usageCsvName } from "./usage-csv";
import type { UsageReport } from "./read-usage";

const report: UsageReport = {
  groupBy: "person",
  from: "2026-11-01",
  to: "2026-11-30",
  rows: [
    { key: "u1", label: 'Ann "the boss", Jr.', inputTokens: 1200, outputTokens: 300, costUsd: 0.0012, turns: 3 },
    { key: "u2", label: "=HYPERLINK(\"x\")", inputTokens: 10, outputTokens: 5, costUsd: 0, turns: 1 },
    { key: "u3", label: "Line\nbreak", inputTokens: 0, outputTokens: 1, costUsd: 0, turns: 1 },
  ],
  totals: { inputTokens: 1210, outputTokens: 306, costUsd: 0.0012, turns: 5 },
};

describe("usage CSV", () => {
  it("quotes fields with commas, quotes and line breaks as RFC 4180 says, doubling quotes", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\r\nlines")).toBe('"two\r\nlines"');
    expect(csvField(42)).toBe("42");
  });

  it("keeps a name that a spreadsheet would run as a formula as text", () => {
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField("@handle")).toBe("'@handle");
    expect(csvField("-5")).toBe("'-5");
    expect(csvField(-5)).toBe("-5");
  });

  it("writes the header, one line per row and the total, with CRLF line ends, read back as the same values", () => {
    const text = usageCsv(report);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.split("\r\n")[0]).toBe("Person,Input tokens,Output tokens,Total tokens,Cost (USD),Turns");
    const table = parseCsv(text);
    expect(table.header).toEqual(["Person", "Input tokens", "Output tokens", "Total tokens", "Cost (USD)", "Turns"]);
    expect(table.rows).toEqual([
      ['Ann "the boss", Jr.', "1200", "300", "1500", "0.001200", "3"],
      ["'=HYPERLINK(\"x\")", "10", "5", "15", "0.000000", "1"],
      ["Line\nbreak", "0", "1", "1", "0.000000", "1"],
      ["Total", "1210", "306", "1516", "0.001200", "5"],
    ]);
  });

  it("names the file after its grouping and days", () => {
    expect(usageCsvName(report)).toBe("chorus-usage-by-person-2026-11-01-to-2026-11-30.csv");
  });
});
