/**
 * The @handles a message mentions, lowercased and unique. Mentions inside code spans or fenced
 * code blocks do not count, nor does the @ of an email address (a word character before it).
 */
const fencedCode = /```[\s\S]*?(```|$)/g;
const inlineCode = /`[^`\n]*`/g;
/** `@handle` preceded by something that is not part of a word or an email address (group 1). */
export const MENTION_PATTERN = /(^|[^\w@.+-])@([a-z0-9](?:[a-z0-9_.-]*[a-z0-9_])?)/gi;

export function parseMentions(content: string): string[] {
  const prose = content.replace(fencedCode, " ").replace(inlineCode, " ");
  const handles = new Set<string>();
  for (const match of prose.matchAll(MENTION_PATTERN)) handles.add(match[2]!.toLowerCase());
  return [...handles];
}
