/**
 * The kinds of file an agent's knowledge takes, by extension: how each is read and the media type
 * its document is stored with. Browser-safe: the admin page's file picker and help text come from
 * here too, so they cannot drift from what the server accepts.
 */
export type Reader = "text" | "csv" | "tsv" | "json" | "html" | "pdf" | "docx";

const format = (mediaType: string, reader: Reader = "text") => ({ mediaType, reader });

/** Source code and configuration, kept as the text it is. */
const CODE = {
  ".js": format("text/javascript"),
  ".mjs": format("text/javascript"),
  ".cjs": format("text/javascript"),
  ".jsx": format("text/javascript"),
  ".ts": format("text/x-typescript"),
  ".tsx": format("text/x-typescript"),
  ".py": format("text/x-python"),
  ".java": format("text/x-java"),
  ".kt": format("text/x-kotlin"),
  ".swift": format("text/x-swift"),
  ".go": format("text/x-go"),
  ".rs": format("text/x-rust"),
  ".rb": format("text/x-ruby"),
  ".php": format("text/x-php"),
  ".c": format("text/x-c"),
  ".h": format("text/x-c"),
  ".cpp": format("text/x-c++"),
  ".hpp": format("text/x-c++"),
  ".cs": format("text/x-csharp"),
  ".sh": format("text/x-shellscript"),
  ".sql": format("application/sql"),
  ".css": format("text/css"),
  ".xml": format("application/xml"),
  ".yaml": format("application/yaml"),
  ".yml": format("application/yaml"),
  ".toml": format("application/toml"),
  ".ini": format("text/plain"),
};

export const DOCX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

const FORMATS: Record<string, { mediaType: string; reader: Reader }> = {
  ".md": format("text/markdown"),
  ".markdown": format("text/markdown"),
  ".txt": format("text/plain"),
  ".pdf": format("application/pdf", "pdf"),
  ".docx": format(DOCX_MEDIA_TYPE, "docx"),
  ".html": format("text/html", "html"),
  ".htm": format("text/html", "html"),
  ".csv": format("text/csv", "csv"),
  ".tsv": format("text/tab-separated-values", "tsv"),
  ".json": format("application/json", "json"),
  ...CODE,
};

export const ACCEPTED_EXTENSIONS = Object.keys(FORMATS);

/** What the file picker offers: every accepted extension. */
export const ACCEPT_ATTRIBUTE = ACCEPTED_EXTENSIONS.join(",");

/** The accepted kinds in words, for help text and refusals. */
export const ACCEPTED_IN_WORDS = `Word (.docx), PDF, Markdown (.md), text (.txt), web pages (.html), CSV, TSV, JSON and source code or configuration (${Object.keys(CODE).join(" ")})`;

/** The format a file's name claims, or null when its extension is not one knowledge takes. */
export function formatOf(name: string): { extension: string; mediaType: string; reader: Reader } | null {
  const extension = /\.[a-z0-9+]+$/i.exec(name)?.[0]?.toLowerCase();
  const known = extension ? FORMATS[extension] : undefined;
  return extension && known ? { extension, ...known } : null;
}
