import { expect, test } from "./fixtures";
import { newPerson } from "./pages";

// The render budget (issue 22): a streamed piece of an agent's reply renders that reply's bubble
// and nothing else. The page is opened with `?renderCount`, which makes every message row and
// streaming bubble count its commits in `window.__chorusRenders` (a production build does too).

type Counts = Record<string, number>;

const countsOf = (page: import("@playwright/test").Page) => page.evaluate(() => ({ ...(window.__chorusRenders ?? {}) }) as Record<string, number>);

test("while a reply streams, no other message renders again, and the streaming bubble does", async ({ browser }) => {
  const ann = await newPerson(browser, "Ann");
  const channel = await ann.conversation.createChannel("budget", ["Toby"]);
  const origin = new URL(ann.page.url()).origin;
  const conversationId = new URL(ann.page.url()).pathname.split("/").at(-1)!;
  // Messages that cost something to render: markdown, a table, highlighted code, a link (none asks Toby).
  const texts = [
    "Plain words to start with.",
    "| step | owner |\n|---|---|\n| build | Ann |\n| ship | Toby |",
    "```ts\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```",
    "- one\n- two\n- **three** with `code`",
    "A link to https://example.com and `@toby` in code, which asks nobody.",
  ];
  for (const content of texts) {
    const posted = await ann.page.request.post(`/api/conversations/${conversationId}/messages`, { headers: { origin }, data: { content } });
    expect(posted.status()).toBe(201);
  }

  await ann.page.goto(`/c/${conversationId}?renderCount`);
  const composer = ann.conversation.composer(channel);
  await expect(composer).toBeVisible();
  // Messages of people and agents (a notice, like Toby's joining, is a line of text with no counter).
  const rows = ann.conversation.messages().locator("div[data-seq]");
  await expect(ann.conversation.messages().getByText("A link to")).toBeVisible();

  // The offline model reads numbered steps back: a reply of some 150 pieces, a word every 60 ms.
  const steps = Array.from({ length: 12 }, (_, index) => `${index + 1}. check part ${index + 1} of the release notes with the whole team`);
  await composer.fill([`@toby please read these steps back to me:`, ...steps].join("\n"));
  await composer.press("Enter");
  const bubble = ann.conversation.messages().getByRole("listitem", { name: "Toby is replying" });
  await expect(bubble).toBeVisible({ timeout: 20_000 });
  // The counters run: every message in the list has been counted at least once.
  const liveKey = async () => Object.keys(await countsOf(ann.page)).find((key) => key.startsWith("live:"));
  await expect.poll(liveKey).toBeTruthy();
  const key = (await liveKey())!;

  const before: Counts = await countsOf(ann.page);
  const messageKeys = Object.keys(before).filter((name) => name.startsWith("message:"));
  expect(messageKeys.length).toBe(await rows.count());
  expect(messageKeys.length).toBeGreaterThanOrEqual(texts.length + 1);
  for (const name of messageKeys) expect(before[name], name).toBeGreaterThanOrEqual(1);

  // More pieces stream in.
  await expect.poll(async () => (await countsOf(ann.page))[key]! - before[key]!, { timeout: 15_000 }).toBeGreaterThanOrEqual(5);
  const after: Counts = await countsOf(ann.page);
  // Still streaming when counted: the reply's own message (which renders the question's group again) has not arrived.
  await expect(bubble).toBeVisible();

  // The bubble rendered for the pieces; every other message rendered not once more.
  expect(after[key]! - before[key]!).toBeGreaterThanOrEqual(5);
  const others = Object.fromEntries(Object.keys(after).filter((name) => name !== key).map((name) => [name, after[name]! - (before[name] ?? 0)]));
  expect(Object.values(others).filter((renders) => renders !== 0), JSON.stringify(others)).toEqual([]);
  await ann.context.close();
});
