import { describe, expect, it } from "vitest";
import { handleFromName } from "./user-handle";

describe("handleFromName", () => {
  it.each([
    ["Mia Member", "mia.member"],
    ["  José  Ñúñez ", "jose.nunez"],
    ["O'Brien", "obrien"],
    ["!!!", "user"],
    ["A very long name that goes on and on", "a.very.long.name.that.go"],
  ])("%j → %j", (name, handle) => {
    expect(handleFromName(name)).toBe(handle);
  });
});
