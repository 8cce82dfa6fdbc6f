import { z } from "zod";
import { MAX_DISTINCT_REACTIONS, normaliseEmoji, withoutSkinTones } from "./emoji-catalog";

export { MAX_DISTINCT_REACTIONS };

/**
 * One emoji to react with, as the server accepts it from an action or a socket: an emoji of the
 * catalogue, in the catalogue's form (a missing or extra U+FE0F is corrected, "❤" → "❤️", so the
 * same reaction is never stored two ways). Anything else is refused in words, never altered:
 * skin-tone variants too, which the picker doesn't offer.
 */
export const reactionEmojiSchema = z.string({ error: "Pick an emoji to react with." }).transform((input, ctx) => {
  const emoji = normaliseEmoji(input);
  if (emoji !== null) return emoji;
  const plain = withoutSkinTones(input);
  const message =
    input.trim().length === 0
      ? "Pick an emoji to react with."
      : plain !== input && normaliseEmoji(plain) !== null
        ? "Reactions don't take skin tones yet. Pick the emoji without one and try again."
        : "That emoji isn't one Chorus knows. Pick one from the emoji picker and try again.";
  ctx.addIssue({ code: "custom", message });
  return z.NEVER;
});
