import { describe, expect, it } from "vitest";
import { contrastRatio, parseColour, readableTextOn } from "@/components/ui/readable-text";
import { AVATAR_COLOURS, avatarColorSchema, avatarKey, avatarOf, isAvatarKey } from "./avatar-rules";

const version = "0f8e6c1a-2b3d-4e5f-8a9b-0c1d2e3f4a5b";

describe("avatar rules", () => {
  it("gives a picture's URL, named by its version, only for a key Chorus wrote", () => {
    expect(avatarOf({ id: "user 1", image: avatarKey(version), avatarColor: null })).toEqual({ color: null, avatarUrl: `/api/avatars/user%201?v=${version}` });
    // Anything else in the column (a URL from elsewhere, a path) is no picture.
    for (const image of [null, "https://elsewhere.example/me.png", "../avatar-x", `avatar-${version}/../x`]) {
      expect(isAvatarKey(image)).toBe(false);
      expect(avatarOf({ id: "u", image, avatarColor: "#0f766e" })).toEqual({ color: "#0f766e", avatarUrl: null });
    }
  });

  it("offers colours that initials read on at AA, and accepts only those or none", () => {
    for (const { value } of AVATAR_COLOURS) expect(contrastRatio(parseColour(value)!, parseColour(readableTextOn(value))!)).toBeGreaterThanOrEqual(4.5);
    expect(new Set(AVATAR_COLOURS.map((colour) => colour.name)).size).toBe(AVATAR_COLOURS.length);
    expect(avatarColorSchema.safeParse({ avatarColor: AVATAR_COLOURS[0].value }).success).toBe(true);
    expect(avatarColorSchema.safeParse({ avatarColor: null }).success).toBe(true);
    for (const avatarColor of ["#123456", "red", 7, undefined]) expect(avatarColorSchema.safeParse({ avatarColor }).error?.issues[0]?.message).toBe("Choose one of the colours shown.");
  });
});
