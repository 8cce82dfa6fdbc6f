/** How a long session was summarised (an episode's coverage), in words; null for a whole session. Browser-safe. */
export function coverageText(coverage: string | null): string | null {
  const pieces = coverage && /^pieces:(\d+)$/.exec(coverage);
  if (pieces) return `a long session, summarised in ${pieces[1]} parts`;
  const latest = coverage && /^latest:(\d+)\/(\d+)$/.exec(coverage);
  if (latest) return `from the latest ${latest[1]} of ${latest[2]} messages`;
  return null;
}
