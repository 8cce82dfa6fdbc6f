import { describe, expect, it } from "vitest";
import { parseMentions } from "./parse-mentions";

describe("parseMentions", () => {
  it.each([
    ["@toby can you research this?", ["toby"]],
    ["ask @Toby and @ADA, then @toby again", ["toby", "ada"]],
    ["thanks @mia.member.", ["mia.member"]],
    ["(@toby)", ["toby"]],
    ["Hey team, good morning!", []],
    ["mail me at toby@example.com", []],
    ["use `@toby` literally", []],
    ["```\n@toby inside a block\n```\nbut @ada outside", ["ada"]],
    ["unterminated ```\n@toby", []],
    ["@@toby", []],
    ["line one\n@sage line two", ["sage"]],
  ])("%j mentions %j", (content, expected) => {
    expect(parseMentions(content)).toEqual(expected);
  });
});
