import { describe, expect, it } from "vitest";
import { insertMention, mentionQueryAt } from "./mention-query";

describe("mention autocomplete", () => {
  it("finds the handle being typed before the caret", () => {
    expect(mentionQueryAt("hi @To", 6)).toEqual({ start: 3, query: "to" });
    expect(mentionQueryAt("@", 1)).toEqual({ start: 0, query: "" });
    expect(mentionQueryAt("mail a@b", 8)).toBeNull();
    expect(mentionQueryAt("@toby done", 10)).toBeNull();
  });

  it("replaces the partial handle with the chosen one and a space", () => {
    expect(insertMention("hi @to there", 3, 6, "toby")).toEqual({ text: "hi @toby  there", caret: 9 });
  });
});
