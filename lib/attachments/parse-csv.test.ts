import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCsv } from "./parse-csv";

describe("parseCsv", () => {
  it("reads the first record as the header and the rest as rows", () => {
    expect(parseCsv("name,team\nAnn,search\nBob,files\n")).toEqual({ header: ["name", "team"], rows: [["Ann", "search"], ["Bob", "files"]], totalRows: 2 });
  });

  it("reads quoted fields with delimiters, line breaks and doubled quotes inside", () => {
    const { rows } = parseCsv('name,note\n"Smith, Ann","said ""ship it""\nthen left"\n');
    expect(rows).toEqual([["Smith, Ann", 'said "ship it"\nthen left']]);
  });

  it("keeps empty fields, quoted or not, and a quoted empty field alone on a line", () => {
    expect(parseCsv('a,b,c\n,"",\n""\n').rows).toEqual([["", "", ""], [""]]);
  });

  it("treats a quote inside an unquoted field, or after a closing quote, as a character", () => {
    expect(parseCsv('size\n5" screen\n"a"b\n').rows).toEqual([['5" screen'], ["ab"]]);
  });

  it("ends records at CRLF, LF or CR, with or without a final line break, and skips blank lines", () => {
    expect(parseCsv("h\r\n1\r\n\r\n2\r3\n\n4")).toEqual({ header: ["h"], rows: [["1"], ["2"], ["3"], ["4"]], totalRows: 4 });
  });

  it("keeps only the rows asked for and counts the others", () => {
    const text = ["n", ...Array.from({ length: 500 }, (_, index) => String(index))].join("\n");
    const table = parseCsv(text, { maxRows: 3 });
    expect(table.rows).toEqual([["0"], ["1"], ["2"]]);
    expect(table.totalRows).toBe(500);
  });

  it("runs a quote left open to the end, as in a file cut short", () => {
    expect(parseCsv('id,text\n1,"unfinished\nline').rows).toEqual([["1", "unfinished\nline"]]);
  });

  it("reads tab-separated values with another delimiter", () => {
    expect(parseCsv("a\tb\n1,5\t2\n", { delimiter: "\t" }).rows).toEqual([["1,5", "2"]]);
  });

  it("keeps rows of different lengths as they are", () => {
    expect(parseCsv("a,b\n1\n1,2,3\n").rows).toEqual([["1"], ["1", "2", "3"]]);
  });

  it("reads back any table written with every field quoted", () => {
    const quote = (field: string) => `"${field.replaceAll('"', '""')}"`;
    fc.assert(
      fc.property(fc.array(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }), fc.constantFrom("\n", "\r\n"), (records, lineBreak) => {
        const text = records.map((record) => record.map(quote).join(",")).join(lineBreak);
        const [header, ...rows] = records;
        expect(parseCsv(text)).toEqual({ header, rows, totalRows: rows.length });
      }),
    );
  });

  it("gives an empty table for empty text", () => {
    expect(parseCsv("")).toEqual({ header: [], rows: [], totalRows: 0 });
    expect(parseCsv("\n\n")).toEqual({ header: [], rows: [], totalRows: 0 });
    expect(parseCsv("only,a,header\n")).toEqual({ header: ["only", "a", "header"], rows: [], totalRows: 0 });
  });
});
