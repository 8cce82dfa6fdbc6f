import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as searchRoute } from "@/app/api/search/route";
import { createApiToken } from "@/lib/api-tokens/create-api-token";
import { openDirectMessage } from "@/lib/conversations/open-direct-message";
import { postMessage } from "@/lib/conversations/post-message";
import { parseSearchInput } from "@/lib/search/search-input";
import { SEARCH_CANDIDATES, searchMessages, type SearchPage } from "@/lib/search/search-messages";
import { createChannel, createProjectWithChannel } from "../support/fixtures";
import { TestApp, type TestUser } from "../support/test-app";

describe("message search", () => {
  let app: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let projectId: string;
  let agentId: string;
  let token: string;

  /** A message written straight into the table (any author, role, time), with the conversation's next seq. */
  const insert = async (conversationId: string, content: string, fields: { authorUserId?: string; authorAgentId?: string; role?: "user" | "assistant" | "system"; createdAt?: Date; deletedAt?: Date } = {}) => {
    const { _max } = await app.prisma.message.aggregate({ where: { conversationId }, _max: { seq: true } });
    return app.prisma.message.create({ data: { conversationId, seq: (_max.seq ?? 0) + 1, content, role: fields.role ?? (fields.authorAgentId ? "assistant" : "user"), ...fields } });
  };
  const channel = async (name: string, userIds: string[]) => (await createChannel(app.prisma, { projectId, name: `${name}-${randomUUID().slice(0, 8)}`, userIds })).id;
  const search = (user: { id: string }, query: string, filters: Record<string, string | undefined> = {}) =>
    searchMessages(app.prisma, { userId: user.id, ...parseSearchInput({ q: query, ...filters }) });
  const contents = (page: SearchPage) => page.results.map((result) => result.snippet.map((part) => part.text).join(""));
  const get = (query: Record<string, string>, auth: { token?: string; cookie?: string } = { token }) =>
    searchRoute(
      new Request(`${app.url}/api/search?${new URLSearchParams(query)}`, {
        headers: { host: new URL(app.url).host, ...(auth.token ? { authorization: `Bearer ${auth.token}` } : {}), ...(auth.cookie ? { cookie: auth.cookie } : {}) },
      }),
    );

  beforeAll(async () => {
    app = await TestApp.start();
    projectId = (await createProjectWithChannel(app.prisma)).project.id;
    alice = await app.signUp("Alice");
    bob = await app.signUp("Bob");
    agentId = (await app.prisma.agent.create({ data: { projectId, handle: "toby", displayName: "Toby", color: "#336699", systemPrompt: "x", model: "offline" } })).id;
    token = (await createApiToken(app.prisma, { userId: alice.id, name: "search script" })).token;
  });
  afterAll(() => app.close());

  it("ranks matches, stems words, and marks them in snippets with the conversation, author and seq", async () => {
    const ops = await channel("ops", [alice.id, bob.id]);
    // Posted through the real posting path: what posting writes is searchable at once.
    const { message } = await postMessage(app.prisma, { userId: bob.id, input: { conversationId: ops, clientId: randomUUID(), content: "Deployed the kraken build to staging" } });
    const notes = `Long notes about lunch, the weather and the kraken sightings; ${"nothing else of note today. ".repeat(12)}and kraken deployments later`;
    await insert(ops, notes, { authorAgentId: agentId });
    await insert(ops, "unrelated chatter");

    const page = await search(alice, "kraken deploying");
    expect(page.total).toBe(2);
    expect(page.results[0]).toMatchObject({ id: message.id, conversationId: ops, conversationTitle: expect.stringMatching(/^ops-/), seq: message.seq, author: { kind: "user", id: bob.id, name: "Bob" }, createdAt: message.createdAt });
    expect(page.results[0]!.snippet).toEqual([
      { text: "Deployed", match: true },
      { text: " the ", match: false },
      { text: "kraken", match: true },
      { text: " build to staging", match: false },
    ]);
    expect(page.results[0]!.rank).toBeGreaterThan(page.results[1]!.rank);
    // A long message shows the passage around its matches, not its whole text; far apart matches, two passages.
    const long = page.results[1]!;
    expect(long.author).toEqual({ kind: "agent", id: agentId, name: "Toby" });
    expect(new Set(long.snippet.filter((part) => part.match).map((part) => part.text))).toEqual(new Set(["kraken", "deployments"]));
    expect(contents(page)[1]).toMatch(/and kraken deployments later$/);
    expect(contents(page)[1]!.length).toBeLessThan(notes.length);
    expect(contents(await search(alice, "lunch or later"))[0]).toMatch(/^Long notes about lunch.* … .*later$/);
  });

  it("understands the web search syntax: phrases, exclusions and or", async () => {
    const room = await channel("syntax", [alice.id]);
    await insert(room, "the quokka parade starts at noon");
    await insert(room, "parade of the quokka");
    await insert(room, "a wombat parade");

    expect(contents(await search(alice, '"quokka parade"'))).toEqual(["the quokka parade starts at noon"]);
    expect(contents(await search(alice, "parade -quokka"))).toEqual(["a wombat parade"]);
    expect((await search(alice, "wombat or quokka")).total).toBe(3);
  });

  it("never finds deleted or system messages, nor forks' messages", async () => {
    const room = await channel("tombstones", [alice.id]);
    await insert(room, "narwhal sighting confirmed");
    await insert(room, "", { deletedAt: new Date() });
    const deleted = await insert(room, "narwhal sighting retracted");
    // A deletion empties the content (the tombstone); even with its text left behind, it stays hidden.
    await app.prisma.message.update({ where: { id: deleted.id }, data: { deletedAt: new Date() } });
    await insert(room, "narwhal notice from the system", { role: "system" });
    const fork = await app.prisma.conversation.create({ data: { projectId, type: "fork", key: "per_room", scope: `fork:${randomUUID()}`, title: "fork", participants: { create: [{ userId: alice.id }] } } });
    await insert(fork.id, "narwhal in a fork");

    expect(contents(await search(alice, "narwhal"))).toEqual(["narwhal sighting confirmed"]);
  });

  it("filters by conversation, author (a person or an agent) and time, and unknown ids find nothing", async () => {
    const first = await channel("first", [alice.id, bob.id]);
    const second = await channel("second", [alice.id]);
    // Months ago (searched through every month), and now (in the recent months searched first).
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    await insert(first, "pelican report one", { authorUserId: bob.id, createdAt: daysAgo(300) });
    const two = await insert(first, "pelican report two", { authorAgentId: agentId, createdAt: daysAgo(250) });
    await insert(second, "pelican report three", { authorUserId: alice.id, createdAt: daysAgo(200) });
    await insert(second, "pelican report now", { authorAgentId: agentId });

    const texts = async (filters: Record<string, string>) => contents(await search(alice, "pelican", filters)).sort();
    const iso = (date: Date) => date.toISOString();
    expect(await texts({ conversationId: second })).toEqual(["pelican report now", "pelican report three"]);
    expect(await texts({ authorId: bob.id })).toEqual(["pelican report one"]);
    expect(await texts({ authorId: agentId })).toEqual(["pelican report now", "pelican report two"]);
    expect(await texts({ authorId: agentId, after: iso(daysAgo(1)) })).toEqual(["pelican report now"]);
    expect(await texts({ after: iso(daysAgo(260)), before: iso(daysAgo(100)) })).toEqual(["pelican report three", "pelican report two"]);
    // "before" excludes its own moment; a bare day is accepted too.
    expect(await texts({ before: iso(two.createdAt) })).toEqual(["pelican report one"]);
    expect(await texts({ after: "2000-01-01", before: iso(daysAgo(225)) })).toEqual(["pelican report one", "pelican report two"]);
    expect(await texts({ conversationId: randomUUID() })).toEqual([]);
    expect(await texts({ authorId: "no-such-person" })).toEqual([]);
    // Bob is not in the second conversation: naming it shows him nothing.
    expect(contents(await search(bob, "pelican", { conversationId: second }))).toEqual([]);
  });

  it("names a direct message after the other person, and pages through results", async () => {
    const dm = (await openDirectMessage(app.prisma, { userId: alice.id, projectId, otherUserId: bob.id })).id;
    for (let index = 0; index < 25; index += 1) await insert(dm, `ibis count ${index}`, { authorUserId: bob.id });

    const first = await search(alice, "ibis");
    expect(first).toMatchObject({ total: 25, more: false, nextOffset: 20 });
    expect(first.results).toHaveLength(20);
    expect(first.results[0]!.conversationTitle).toBe("Bob");
    const second = await search(alice, "ibis", { offset: "20" });
    expect(second).toMatchObject({ total: 25, nextOffset: null });
    expect(new Set([...first.results, ...second.results].map((result) => result.id)).size).toBe(25);
    expect((await search(alice, "ibis", { offset: "40" })).results).toEqual([]);
  });

  it("ranks the newest matches when more match than it ranks, and finds older ones with a filter", async () => {
    const room = await channel("busy", [alice.id]);
    const { _max } = await app.prisma.message.aggregate({ where: { conversationId: room }, _max: { seq: true } });
    const recent = Array.from({ length: SEARCH_CANDIDATES + 5 }, (_, index) => ({ conversationId: room, seq: (_max.seq ?? 0) + index + 1, content: `osprey ${index}`, role: "user" as const }));
    await app.prisma.message.createMany({ data: recent });
    const old = await insert(room, "osprey osprey osprey, the best match but two years old", { createdAt: new Date(Date.now() - 2 * 365 * 86_400_000) });

    const page = await search(alice, "osprey");
    expect(page).toMatchObject({ total: SEARCH_CANDIDATES, more: true });
    expect(page.results.map((result) => result.id)).not.toContain(old.id);
    const older = await search(alice, "osprey", { before: new Date(Date.now() - 365 * 86_400_000).toISOString() });
    expect(older).toMatchObject({ total: 1, more: false, results: [{ id: old.id }] });
    // From a week ago: the recent months hold all of that time.
    const lastWeek = await search(alice, "osprey", { after: new Date(Date.now() - 7 * 86_400_000).toISOString() });
    expect(lastWeek).toMatchObject({ total: SEARCH_CANDIDATES, more: true });
    // The recent months are looked up by lexemes the index writes: both sides must name a month alike.
    const [agree] = await app.prisma.$queryRaw<{ found: boolean }[]>`
      SELECT "chorus_message_search_vector"('x', 'c', now() AT TIME ZONE 'UTC', NULL) @@ "chorus_conversations_search_query"(ARRAY['c'], ARRAY[now() AT TIME ZONE 'UTC']) AS "found"`;
    expect(agree!.found).toBe(true);
  });

  it("finds only messages of conversations the person takes part in, and counts no others (random memberships)", async () => {
    let world = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }).chain((people) =>
          fc.array(fc.array(fc.boolean(), { minLength: people, maxLength: people }), { minLength: 1, maxLength: 5 }).map((members) => ({ people, members })),
        ),
        async ({ people, members }) => {
          world += 1;
          const users = await Promise.all(
            Array.from({ length: people }, (_, index) => app.prisma.user.create({ data: { id: randomUUID(), name: `P${index}`, email: `p${world}.${index}@example.test`, handle: `p${world}x${index}` } })),
          );
          // Each conversation has a word of its own and one they all share.
          const conversations = await Promise.all(
            members.map(async (row, index) => {
              const id = await channel(`w${world}`, users.filter((_, person) => row[person]).map((user) => user.id));
              await insert(id, `secretw${world}c${index} and sharedw${world}`);
              return { id, word: `secretw${world}c${index}`, members: users.filter((_, person) => row[person]).map((user) => user.id) };
            }),
          );
          for (const user of users) {
            const mine = conversations.filter((conversation) => conversation.members.includes(user.id));
            for (const conversation of conversations) {
              const page = await search(user, conversation.word);
              expect(page.total).toBe(mine.includes(conversation) ? 1 : 0);
              expect(page.results.map((result) => result.conversationId)).toEqual(mine.includes(conversation) ? [conversation.id] : []);
            }
            const shared = await search(user, `sharedw${world}`);
            expect(shared.total).toBe(mine.length);
            expect(shared.results.map((result) => result.conversationId).sort()).toEqual(mine.map((conversation) => conversation.id).sort());
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  describe("over HTTP", () => {
    const expect400 = async (query: Record<string, string>, message: RegExp) => {
      const response = await get(query);
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect((await response.json()).error).toMatchObject({ code: "bad_request", message: expect.stringMatching(message) });
    };

    it("answers with a personal token or the session cookie, and 401 without either", async () => {
      const room = await channel("http", [alice.id]);
      await insert(room, "heron spotted by the lake");
      const byToken = await get({ q: "heron" });
      expect(byToken.status).toBe(200);
      expect((await byToken.json()).data).toMatchObject({ total: 1, results: [{ conversationId: room, snippet: [{ text: "heron", match: true }, { text: " spotted by the lake", match: false }] }] });
      expect((await get({ q: "heron" }, { cookie: alice.cookie })).status).toBe(200);
      const anonymous = await get({ q: "heron" }, {});
      expect(anonymous.status).toBe(401);
    });

    it("refuses bad searches with 400 and words a person can act on", async () => {
      await expect400({}, /Type something to search for/);
      await expect400({ q: "   " }, /Type something to search for/);
      await expect400({ q: "x".repeat(501) }, /at most 500 characters; this one has 501/);
      await expect400({ q: "a\u0000b" }, /control characters \(U\+0000 at character 2\)/);
      for (const q of ['"', "-", "OR OR", "the and of", "!!! ???"]) await expect400({ q }, /Nothing to search for/);
      await expect400({ q: "-deploy" }, /only says which words to leave out/);
      await expect400({ q: "x", after: "2026-02-30" }, /after must be a date like 2026-11-26/);
      await expect400({ q: "x", before: "yesterday" }, /before must be a date/);
      await expect400({ q: "x", after: "2026-03-01", before: "2026-02-01" }, /after must be earlier than before/);
      await expect400({ q: "x", offset: "-1" }, /offset must be a whole number/);
      await expect400({ q: "x", offset: "two" }, /offset must be a whole number/);
      await expect400({ q: "x", conversationId: "'; DROP TABLE messages; --" }, /conversationId must be an id/);
      expect((await get({ q: "x", conversationId: randomUUID() })).status).toBe(200);
    });

    it("never answers 500, whatever the search text", async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: fc.constantFrom("a", "b", " ", '"', "-", "|", "&", "!", "(", ")", ":", "*", "'", "\\", "<", ">", "or", "OR", "é", "数", "🎉", "\u0000", "\u202e", "\n", "\ud800") , maxLength: 40 }), async (q) => {
          const status = (await get({ q })).status;
          expect([200, 400], JSON.stringify(q)).toContain(status);
        }),
        { numRuns: 150 },
      );
    });
  });
});
