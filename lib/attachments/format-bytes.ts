const MB = 1024 * 1024;

/** "25 MB", "1.5 MB", "800 KB": sizes as people read them. */
export function formatBytes(bytes: number): string {
  if (bytes >= MB) return `${Number((bytes / MB).toFixed(1)).toLocaleString("en-US")} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024).toLocaleString("en-US")} KB`;
  return `${bytes} bytes`;
}
