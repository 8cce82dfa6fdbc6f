import { describe, expect, it } from "vitest";
import { emojiEntry, emojiGroups, emojiName, FREQUENTLY_USED, isKnownEmoji, MAX_DISTINCT_REACTIONS, normaliseEmoji, searchEmoji, withoutSkinTones } from "./emoji-catalog";
import { reactionEmojiSchema, MAX_DISTINCT_REACTIONS as fromInput } from "./reaction-input";

const names = (query: string, limit?: number) => searchEmoji(query, limit).map((entry) => entry.name);
const refusal = (input: unknown) => {
  const result = reactionEmojiSchema.safeParse(input);
  return result.success ? null : result.error.issues.map((issue) => issue.message);
};

describe("isKnownEmoji", () => {
  it("knows the dataset's emoji exactly, ZWJ sequences and flags included", () => {
    for (const emoji of ["👍", "😂", "❤️", "👩‍💻", "🏳️‍🌈", "👁️‍🗨️", "🇯🇵", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "#️⃣"]) expect(isKnownEmoji(emoji), emoji).toBe(true);
  });

  it("refuses text, several emoji, pieces of a sequence, skin tones and other forms", () => {
    for (const text of ["", "a", "thumbs up", ":+1:", "👍👍", " 👍", "👍 ", "👩‍", "\u200D", "❤", "👍🏽", "🏽", "👩🏽‍💻", "1", "#"]) expect(isKnownEmoji(text), text).toBe(false);
  });

  it("knows every frequently used emoji, and the limit is the one the server and picker share", () => {
    expect(FREQUENTLY_USED.every(isKnownEmoji)).toBe(true);
    expect(MAX_DISTINCT_REACTIONS).toBe(50);
    expect(fromInput).toBe(MAX_DISTINCT_REACTIONS);
  });
});

describe("normaliseEmoji", () => {
  it("adds or removes U+FE0F to reach the dataset's form", () => {
    expect(normaliseEmoji("❤")).toBe("❤️"); // keyboards often send the heart without it
    expect(normaliseEmoji("❤️")).toBe("❤️");
    expect(normaliseEmoji("👁‍🗨")).toBe("👁️‍🗨️");
    expect(normaliseEmoji("🏳‍🌈")).toBe("🏳️‍🌈");
    expect(normaliseEmoji("#⃣")).toBe("#️⃣");
    expect(normaliseEmoji("👍\uFE0F")).toBe("👍");
  });

  it("keeps ZWJ sequences whole and refuses everything else", () => {
    expect(normaliseEmoji("👩‍💻")).toBe("👩‍💻");
    expect(normaliseEmoji("👩💻")).toBeNull(); // two emoji without the joiner
    expect(normaliseEmoji("👍🏽")).toBeNull();
    expect(normaliseEmoji(" 👍")).toBeNull();
    expect(normaliseEmoji("\uFE0F")).toBeNull();
    expect(normaliseEmoji("👍".repeat(20))).toBeNull();
  });

  it("takes skin tones off only when asked", () => {
    expect(withoutSkinTones("👍🏽")).toBe("👍");
    expect(withoutSkinTones("👩🏿‍💻")).toBe("👩‍💻");
    expect(withoutSkinTones("🎉")).toBe("🎉");
  });
});

describe("emojiName and emojiEntry", () => {
  it("name any accepted form and nothing else", () => {
    expect(emojiName("👍")).toBe("thumbs up");
    expect(emojiName("❤")).toBe("red heart");
    expect(emojiName("👩‍💻")).toBe("woman technologist");
    expect(emojiName("x")).toBeNull();
    expect(emojiEntry("❤")).toEqual({ emoji: "❤️", name: "red heart", slug: "red_heart", group: "Smileys & Emotion" });
  });
});

describe("emojiGroups", () => {
  it("lists Unicode's groups in order, every emoji once", () => {
    const groups = emojiGroups();
    expect(groups.map((group) => group.slug)).toEqual(["smileys_emotion", "people_body", "animals_nature", "food_drink", "travel_places", "activities", "objects", "symbols", "flags"]);
    expect(groups[0]!.emojis[0]).toMatchObject({ emoji: "😀", name: "grinning face" });
    const all = groups.flatMap((group) => group.emojis.map((entry) => entry.emoji));
    expect(new Set(all).size).toBe(all.length);
    expect(all.every(isKnownEmoji)).toBe(true);
    expect(emojiGroups()).toBe(groups); // built once
  });
});

describe("searchEmoji", () => {
  it("finds nothing for an empty query", () => {
    expect(searchEmoji("")).toEqual([]);
    expect(searchEmoji("   ")).toEqual([]);
    expect(searchEmoji("::__")).toEqual([]);
  });

  it("puts the whole name first, then names starting with the query, then word starts, then anywhere", () => {
    expect(names("eyes")[0]).toBe("eyes");
    expect(names("thumbs")).toEqual(["thumbs up", "thumbs down"]);
    const up = names("up", 500);
    expect(up.indexOf("upside-down face")).toBeLessThan(up.indexOf("thumbs up"));
    expect(up).toContain("thumbs up");
    const heart = names("heart", 500); // "red heart" first, as "heart" is its alias
    expect(heart.slice(1, 4).every((name) => name.startsWith("heart"))).toBe(true);
    expect(heart).toContain("red heart");
    expect(names("umbs")).toEqual(["thumbs up", "thumbs down"]);
  });

  it("ignores case, accents and punctuation, and matches each word's start in any order", () => {
    expect(names("THUMBS UP")[0]).toBe("thumbs up");
    expect(names(":thumbs_up:")[0]).toBe("thumbs up");
    expect(names("pinata")).toEqual(["piñata"]);
    expect(names("joy tears")).toContain("face with tears of joy");
    expect(names("tech wom")).toContain("woman technologist");
    expect(names("number sign")).toEqual(["keycap #"]); // the slug's words count too
  });

  it("knows the usual reactions by the words people use for them", () => {
    expect(names("heart")[0]).toBe("red heart");
    expect(names("lol")[0]).toBe("face with tears of joy");
    expect(names(":tada:")).toEqual(["party popper"]);
    expect(names("+1")[0]).toBe("thumbs up");
    expect(names(":-1:")[0]).toBe("thumbs down");
    expect(names("cele")).toContain("party popper");
    expect(names("smile").slice(0, 4)).toEqual(["grinning face with smiling eyes", "grinning face with big eyes", "smiling face with smiling eyes", "slightly smiling face"]);
  });

  it("finds an emoji by itself, in any accepted form", () => {
    expect(searchEmoji("❤")).toEqual([emojiEntry("❤️")]);
    expect(searchEmoji(" 👍 ")).toEqual([emojiEntry("👍")]);
  });

  it("stops at the limit and finds nothing that doesn't match", () => {
    expect(searchEmoji("face", 5)).toHaveLength(5);
    expect(searchEmoji("face").length).toBe(50);
    expect(searchEmoji("face", 0)).toEqual([]);
    expect(searchEmoji("zzzqqq")).toEqual([]);
  });
});

describe("reactionEmojiSchema", () => {
  it("accepts the catalogue's emoji in the catalogue's form", () => {
    expect(reactionEmojiSchema.parse("👍")).toBe("👍");
    expect(reactionEmojiSchema.parse("❤")).toBe("❤️");
    expect(reactionEmojiSchema.parse("👩‍💻")).toBe("👩‍💻");
  });

  it("refuses the rest in words", () => {
    expect(refusal("lol")).toEqual(["That emoji isn't one Chorus knows. Pick one from the emoji picker and try again."]);
    expect(refusal("👍👍")).toEqual(["That emoji isn't one Chorus knows. Pick one from the emoji picker and try again."]);
    expect(refusal("👍🏽")).toEqual(["Reactions don't take skin tones yet. Pick the emoji without one and try again."]);
    expect(refusal("👩🏽‍💻")).toEqual(["Reactions don't take skin tones yet. Pick the emoji without one and try again."]);
    expect(refusal("")).toEqual(["Pick an emoji to react with."]);
    expect(refusal(undefined)).toEqual(["Pick an emoji to react with."]);
    expect(refusal(42)).toEqual(["Pick an emoji to react with."]);
  });
});
