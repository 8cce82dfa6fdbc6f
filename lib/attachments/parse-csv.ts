/** A CSV file's first record as the header, then its records, as many as were asked for. */
export interface CsvTable {
  header: string[];
  /** The first `maxRows` records after the header. */
  rows: string[][];
  /** Every record after the header, kept or not. */
  totalRows: number;
}

export interface CsvOptions {
  /** "," for CSV, "\t" for TSV. */
  delimiter?: string;
  /** Records to keep after the header; the rest are only counted. */
  maxRows?: number;
}

/**
 * RFC 4180 CSV, read leniently as spreadsheets write it: a field in double quotes may hold the
 * delimiter, line breaks and `""` for a quote; a quote inside an unquoted field is just a
 * character; CRLF, LF or CR end a record; blank lines are no records. A quote left open runs to
 * the end of the text (a file cut short still shows what it has). Rows may differ in length.
 */
export function parseCsv(text: string, { delimiter = ",", maxRows = Number.POSITIVE_INFINITY }: CsvOptions = {}): CsvTable {
  const records: string[][] = [];
  let seen = 0;
  let record: string[] = [];
  let field = "";
  // A quote opens a quoted field only as the field's first character.
  let atFieldStart = true;
  let inQuotes = false;
  // Whether the record has any character outside a line break: a blank line is no record, while "" alone on a line is one empty field.
  let startedRecord = false;

  const endField = () => {
    record.push(field);
    field = "";
    atFieldStart = true;
  };
  const endRecord = () => {
    endField();
    if (startedRecord) {
      // Past the rows asked for, records are only counted: a long file keeps no more than it shows.
      if (seen <= maxRows) records.push(record);
      seen += 1;
    }
    record = [];
    startedRecord = false;
  };

  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (inQuotes) {
      if (char !== '"') field += char;
      else if (text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else inQuotes = false;
      continue;
    }
    if (char === "\n" || char === "\r") {
      if (char === "\r" && text[index + 1] === "\n") index += 1;
      endRecord();
      continue;
    }
    startedRecord = true;
    if (char === delimiter) endField();
    else if (char === '"' && atFieldStart) {
      inQuotes = true;
      atFieldStart = false;
    } else {
      field += char;
      atFieldStart = false;
    }
  }
  // The last record needs no line break after it.
  if (startedRecord) endRecord();

  const [header = [], ...rows] = records;
  return { header, rows, totalRows: Math.max(seen - 1, 0) };
}
