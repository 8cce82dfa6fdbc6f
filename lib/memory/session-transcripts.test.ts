import { describe, expect, it } from "vitest";
import { episodeSources, type SessionMessage } from "./session-transcripts";

let seq = 0;
function message(fields: Partial<SessionMessage> & Pick<SessionMessage, "content">): SessionMessage {
  seq += 1;
  return { id: `m${seq}`, seq, createdAt: new Date(seq * 1000), authorUserId: null, authorAgentId: null, authorHandle: null, replyToMessageId: null, mentionedUserIds: [], mentionedAgentIds: [], ...fields };
}

describe("episodeSources: what an agent keeps, per person", () => {
  it("in a channel, each person's episode holds only what they said and what was said to them", () => {
    const locker = message({ authorUserId: "ann", content: "@ada my locker code is 4512", mentionedAgentIds: ["ada"] });
    const toAnn = message({ authorAgentId: "ada", content: "Noted, Ann.", replyToMessageId: locker.id });
    const hello = message({ authorUserId: "ben", content: "@ada hello", mentionedAgentIds: ["ada"] });
    const toBen = message({ authorAgentId: "ada", content: "Hi Ben.", replyToMessageId: hello.id });
    const chatter = message({ authorUserId: "cat", content: "lunch at noon?" });
    const ping = message({ authorUserId: "cat", content: "@ben are you coming?", mentionedUserIds: ["ben"] });

    const sources = episodeSources("group", [locker, toAnn, hello, toBen, chatter, ping]);
    const of = (userId: string | null) => sources.find((source) => source.agentId === "ada" && source.userId === userId)?.messages.map((m) => m.content);

    expect(of("ann")).toEqual(["@ada my locker code is 4512", "Noted, Ann."]);
    expect(of("ben")).toEqual(["@ada hello", "Hi Ben.", "@ben are you coming?"]);
    // Cat never dealt with Ada: Ada keeps nothing about her.
    expect(of("cat")).toBeUndefined();
    // The channel's own summary sees the whole session, with no person attached.
    expect(of(null)).toHaveLength(6);
  });

  it("in a chat with an agent, the person's episode is the whole session and there is no channel summary", () => {
    const question = message({ authorUserId: "ann", content: "what is the plan?" });
    const answer = message({ authorAgentId: "toby", content: "Ship on Friday.", replyToMessageId: question.id });
    expect(episodeSources("agent_dm", [question, answer])).toEqual([{ agentId: "toby", userId: "ann", messages: [question, answer] }]);
  });

  it("writes nothing when no agent spoke", () => {
    expect(episodeSources("group", [message({ authorUserId: "ann", content: "anyone?" })])).toEqual([]);
  });
});
