import { describe, expect, it } from "vitest";
import { hasPreview, previewFormat } from "./preview-format";

describe("previewFormat", () => {
  it("renders Markdown, tables CSV and TSV, shows PDFs as prose and anything else as written", () => {
    expect(previewFormat("text/markdown", "text")).toEqual({ view: "markdown" });
    expect(previewFormat("text/csv", "text")).toEqual({ view: "table", delimiter: "," });
    expect(previewFormat("text/tab-separated-values", "text")).toEqual({ view: "table", delimiter: "\t" });
    expect(previewFormat("application/pdf", "pdf")).toEqual({ view: "document" });
    for (const mediaType of ["text/plain", "application/json", "text/html"]) expect(previewFormat(mediaType, "text")).toEqual({ view: "code" });
  });

  it("previews text files and PDFs only", () => {
    expect(["text", "pdf", "image", "file"].filter((kind) => hasPreview(kind as never))).toEqual(["text", "pdf"]);
  });
});
