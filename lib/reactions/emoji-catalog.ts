import data from "unicode-emoji-json/data-by-emoji.json";

/**
 * The one list of emoji people may react with (Unicode's fully-qualified, recommended emoji from
 * `unicode-emoji-json`, without skin-tone variants), shared by the server's validation and the
 * picker. Browser-safe. The JSON is imported once; every index is built on first use.
 */

export interface EmojiEntry {
  /** The dataset's (fully-qualified) form: "❤️", with its U+FE0F. */
  emoji: string;
  /** Unicode's CLDR short name: "thumbs up". */
  name: string;
  slug: string;
  /** Unicode's group: "Smileys & Emotion". */
  group: string;
}

export interface EmojiGroup {
  group: string;
  /** Stable and id-safe: "smileys_emotion". */
  slug: string;
  emojis: EmojiEntry[];
}

interface RawEntry {
  name: string;
  slug: string;
  group: string;
}

interface SearchKey {
  entry: EmojiEntry;
  /** Name words, lowercase, accents removed, joined by one space: "smiling face with heart eyes". */
  flat: string;
  slugFlat: string;
  words: string[];
  /** Alias phrases of this emoji, in the form of `flat`. */
  aliases: string[];
}

interface Catalog {
  byEmoji: Map<string, EmojiEntry>;
  /** Every emoji without its U+FE0F variation selectors → the dataset's form (no two collide). */
  byBareForm: Map<string, string>;
  keys: SearchKey[];
  groups: EmojiGroup[];
}

/** The most different emoji one message can carry (each with any number of people). */
export const MAX_DISTINCT_REACTIONS = 50;

/** Shown first in the picker, in this order. */
export const FREQUENTLY_USED: readonly string[] = ["👍", "❤️", "😂", "🎉", "😮", "😢", "🙏", "👀"];

// Words people search by that Unicode's names miss (its names say "smiling", "face with tears of
// joy", "party popper"), mostly Slack's and GitHub's shortcodes for the usual reactions.
const ALIASES: Record<string, readonly string[]> = {
  "+1": ["👍"],
  "-1": ["👎"],
  agree: ["👍"],
  like: ["👍"],
  yes: ["👍", "✅"],
  no: ["👎", "❌"],
  heart: ["❤️"],
  love: ["❤️", "😍", "🥰"],
  smile: ["😄", "😃", "😊", "🙂"],
  happy: ["😄", "😊"],
  laugh: ["😂", "🤣", "😆"],
  lol: ["😂", "🤣"],
  haha: ["😂", "🤣"],
  joy: ["😂"],
  sad: ["😢", "😞", "☹️"],
  wow: ["😮", "🤯"],
  surprised: ["😮", "😲"],
  tada: ["🎉"],
  congrats: ["🎉", "🥳"],
  celebrate: ["🎉", "🥳"],
  thanks: ["🙏"],
  please: ["🙏"],
  pray: ["🙏"],
  ok: ["👌"],
  done: ["✅"],
  think: ["🤔"],
  look: ["👀"],
  cool: ["😎"],
  clap: ["👏"],
};

// The longest emoji in the dataset is 14 UTF-16 code units (a subdivision flag); anything much
// longer is refused before any work.
const MAX_INPUT_LENGTH = 32;
const VARIATION_SELECTOR_16 = /\uFE0F/g;
const SKIN_TONES = /[\u{1F3FB}-\u{1F3FF}]/gu;

let catalog: Catalog | undefined;

function words(text: string): string[] {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function build(): Catalog {
  const byEmoji = new Map<string, EmojiEntry>();
  const byBareForm = new Map<string, string>();
  const keys: SearchKey[] = [];
  const groups = new Map<string, EmojiGroup>();
  const aliases = new Map<string, string[]>();
  for (const [alias, emojis] of Object.entries(ALIASES)) for (const emoji of emojis) aliases.set(emoji, [...(aliases.get(emoji) ?? []), alias]);
  // Object order is the dataset's (Unicode's emoji ordering): none of the keys is an array index.
  for (const [emoji, raw] of Object.entries(data as Record<string, RawEntry>)) {
    const entry: EmojiEntry = { emoji, name: raw.name, slug: raw.slug, group: raw.group };
    byEmoji.set(emoji, entry);
    byBareForm.set(emoji.replace(VARIATION_SELECTOR_16, ""), emoji);
    const nameWords = words(raw.name);
    const slugWords = words(raw.slug);
    keys.push({ entry, flat: nameWords.join(" "), slugFlat: slugWords.join(" "), words: [...new Set([...nameWords, ...slugWords])], aliases: aliases.get(emoji) ?? [] });
    let group = groups.get(raw.group);
    if (!group) {
      group = { group: raw.group, slug: words(raw.group).join("_"), emojis: [] };
      groups.set(raw.group, group);
    }
    group.emojis.push(entry);
  }
  return { byEmoji, byBareForm, keys, groups: [...groups.values()] };
}

function getCatalog(): Catalog {
  catalog ??= build();
  return catalog;
}

/** Exactly an emoji of the dataset, in its fully-qualified form ("❤️", not "❤"). */
export function isKnownEmoji(emoji: string): boolean {
  return getCatalog().byEmoji.has(emoji);
}

/**
 * The dataset's form of `input`, or null. Accepts the forms that differ only by U+FE0F (what
 * keyboards and older clients send: "❤" → "❤️", "👁‍🗨" → "👁️‍🗨️"); refuses anything else,
 * skin-tone variants and surrounding spaces included, so one reaction is never stored two ways.
 */
export function normaliseEmoji(input: string): string | null {
  if (input.length === 0 || input.length > MAX_INPUT_LENGTH) return null;
  const { byEmoji, byBareForm } = getCatalog();
  if (byEmoji.has(input)) return input;
  return byBareForm.get(input.replace(VARIATION_SELECTOR_16, "")) ?? null;
}

/** `input` without its skin-tone modifiers (U+1F3FB–U+1F3FF): "👍🏽" → "👍". */
export function withoutSkinTones(input: string): string {
  return input.replace(SKIN_TONES, "");
}

/** The emoji's name ("thumbs up"), for any form `normaliseEmoji` accepts; null when unknown. */
export function emojiName(emoji: string): string | null {
  const known = normaliseEmoji(emoji);
  return known === null ? null : (getCatalog().byEmoji.get(known)?.name ?? null);
}

/** The entry of an emoji `normaliseEmoji` accepts. */
export function emojiEntry(emoji: string): EmojiEntry | null {
  const known = normaliseEmoji(emoji);
  return known === null ? null : (getCatalog().byEmoji.get(known) ?? null);
}

/** Unicode's groups in order, each with its emoji in order: the picker's tabs. */
export function emojiGroups(): EmojiGroup[] {
  return getCatalog().groups;
}

/**
 * Emoji whose name or slug matches `query`, case- and accent-insensitive, best first: the whole
 * name ("eyes"), then names that start with the query ("thumbs" → thumbs up, thumbs down), then
 * names with a word starting with each query word ("face joy" → face with tears of joy), then
 * names containing it ("umbs"); Unicode's order within each. A few common words Unicode's names
 * miss ("lol", "tada", "+1") count as whole names. An emoji itself ("👍") finds itself; an empty
 * query finds nothing. Punctuation is otherwise ignored: ":thumbs_up:" is "thumbs up".
 */
export function searchEmoji(query: string, limit = 50): EmojiEntry[] {
  if (limit <= 0) return [];
  const { byEmoji, keys } = getCatalog();
  const trimmed = query.trim();
  const itself = normaliseEmoji(trimmed);
  if (itself !== null) return [byEmoji.get(itself)!];
  const shortcode = trimmed.toLowerCase().replace(/^:|:$/g, "");
  const queryWords = words(trimmed);
  const phrase = queryWords.join(" ");
  if (queryWords.length === 0) return [];
  // An alias's emoji first, in its order ("lol": 😂 before 🤣). "+1" and "-1" are aliases only as
  // typed: their one word, "1", finds the keycaps.
  const alias = [phrase, shortcode].find((text) => Object.hasOwn(ALIASES, text));
  const aliased = alias === undefined ? [] : ALIASES[alias]!.flatMap((emoji) => byEmoji.get(emoji) ?? []);
  const tiers: EmojiEntry[][] = [aliased, [], [], [], []];
  for (const key of keys) {
    if (aliased.includes(key.entry)) continue;
    if (key.flat === phrase || key.slugFlat === phrase) tiers[1]!.push(key.entry);
    else if (key.flat.startsWith(phrase) || key.slugFlat.startsWith(phrase) || key.aliases.some((own) => own.startsWith(phrase))) tiers[2]!.push(key.entry);
    else if (queryWords.every((word) => key.words.some((own) => own.startsWith(word)))) tiers[3]!.push(key.entry);
    else if (key.flat.includes(phrase)) tiers[4]!.push(key.entry);
  }
  return tiers.flat().slice(0, limit);
}
