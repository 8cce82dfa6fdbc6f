import { z } from "zod";

/** The largest picture a person may upload; the stored avatar is far smaller. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** An avatar is kept as a square WebP this many pixels a side: twice the largest circle shown. */
export const AVATAR_SIZE = 256;

/**
 * The colours a person may pick for their initials. Any of them reads in white or black at AA
 * (components/ui/readable-text picks which); names are what a screen reader says.
 */
export const AVATAR_COLOURS = [
  { value: "#b91c1c", name: "Red" },
  { value: "#c2410c", name: "Orange" },
  { value: "#a16207", name: "Ochre" },
  { value: "#15803d", name: "Green" },
  { value: "#0f766e", name: "Teal" },
  { value: "#1d4ed8", name: "Blue" },
  { value: "#6d28d9", name: "Violet" },
  { value: "#be185d", name: "Pink" },
  { value: "#475569", name: "Slate" },
] as const;

const colourValues = AVATAR_COLOURS.map((colour) => colour.value);

/** A swatch's value, or null for the colour derived from the person's id. */
export const avatarColorSchema = z.object({
  avatarColor: z
    .string({ error: "Choose one of the colours shown." })
    .nullable()
    .refine((value) => value === null || (colourValues as string[]).includes(value), "Choose one of the colours shown."),
});

/** How a person looks beside their name: a picture, or their initials on a colour. */
export interface PersonAvatar {
  /** Their own colour; null: the one derived from their id (components/ui/avatar `colourFor`). */
  color: string | null;
  /** Their picture, served to signed-in people; null: initials. */
  avatarUrl: string | null;
}

/** Blob keys of avatars: the version is the key's random part, so a new picture is a new URL. */
const KEY_PREFIX = "avatar-";
const KEY = /^avatar-[0-9a-f-]{36}$/;

export function avatarKey(version: string): string {
  return `${KEY_PREFIX}${version}`;
}

/** Only keys Chorus wrote (users.image is the stored avatar's key). */
export function isAvatarKey(value: string | null | undefined): value is string {
  return typeof value === "string" && KEY.test(value);
}

/** A users row's columns as the browser sees them. */
export function avatarOf(user: { id: string; image: string | null; avatarColor: string | null }): PersonAvatar {
  return {
    color: user.avatarColor,
    avatarUrl: isAvatarKey(user.image) ? `/api/avatars/${encodeURIComponent(user.id)}?v=${user.image.slice(KEY_PREFIX.length)}` : null,
  };
}
