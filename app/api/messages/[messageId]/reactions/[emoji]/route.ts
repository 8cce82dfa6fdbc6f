import { AppError } from "@/lib/errors/app-error";
import { parseMessageId } from "@/lib/messages/message-change-input";
import { jsonResponse } from "@/lib/http/json-response";
import { reactToMessage } from "@/lib/messages/react-to-message";
import { reactionEmojiSchema } from "@/lib/reactions/reaction-input";
import { messaging } from "@/lib/runtime/runtime";
import { requireApiUser } from "@/lib/session/api-user";

/** Path segments may arrive still percent-encoded; a malformed one is left as it is (and refused as an emoji). */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

type Params = { params: Promise<{ messageId: string; emoji: string }> };

function react(name: string, reacted: boolean) {
  return (request: Request, { params }: Params) =>
    jsonResponse(name, async () => {
      const { runtime, user } = await requireApiUser(request);
      const messageId = parseMessageId((await params).messageId);
      const emoji = reactionEmojiSchema.safeParse(decodedSegment((await params).emoji));
      if (!emoji.success) throw new AppError("bad_request", emoji.error.issues[0]?.message ?? "That emoji isn't one Chorus knows.");
      return reactToMessage(messaging(runtime), { userId: user.id, messageId, emoji: emoji.data, reacted });
    });
}

/** Adds your reaction (the emoji URL-encoded in the path); adding it again changes nothing. */
export const PUT = react("add-reaction", true);
/** Removes your reaction. */
export const DELETE = react("remove-reaction", false);
