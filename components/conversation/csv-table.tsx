import { parseCsv } from "@/lib/attachments/parse-csv";

/** Rows a preview lays out: enough to see what a file holds; the download has the rest. */
export const PREVIEW_ROWS = 100;

const count = (value: number) => value.toLocaleString("en-US");

/**
 * A CSV or TSV file as a table: its first record as the column headers, then its first rows, with
 * how many of how many it shows. Columns no header names (an empty header cell, a row longer
 * than the header) are named for screen readers.
 */
export function CsvTable({ text, delimiter, name }: { text: string; delimiter: string; name: string }) {
  const { header, rows, totalRows } = parseCsv(text, { delimiter, maxRows: PREVIEW_ROWS });
  const columns = Math.max(header.length, ...rows.map((row) => row.length));
  const cells = (row: string[]) => Array.from({ length: columns }, (_, index) => row[index] ?? "");
  return (
    <table className="border-collapse text-sm">
      <caption className="px-1 pb-2 text-left text-muted">
        <span className="sr-only">{name}: </span>
        Showing {count(rows.length)} of {count(totalRows)} {totalRows === 1 ? "row" : "rows"}
      </caption>
      <thead>
        <tr>
          {cells(header).map((cell, index) => (
            <th key={index} scope="col" className="border border-slate-300 bg-slate-100 px-2 py-1 text-left align-top font-semibold whitespace-pre-wrap dark:border-slate-700 dark:bg-slate-800">
              {cell || <span className="sr-only">Column {index + 1}</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, rowIndex) => (
          <tr key={rowIndex}>
            {cells(row).map((cell, index) => (
              <td key={index} className="border border-slate-300 px-2 py-1 align-top whitespace-pre-wrap dark:border-slate-700">
                {cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
