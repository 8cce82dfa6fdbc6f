import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { ConversationPage, newPerson, signInDemo, widerThanScreen } from "./pages";

// The offline model takes a few seconds per reply here: asking Toby again meanwhile makes the
// next question wait behind the first, as it would behind a busy provider.

const queuedBubbles = (conversation: ConversationPage) => conversation.messages().getByRole("listitem", { name: /^Toby is queued/ });

/** A question whose answer takes a couple of seconds to stream. */
const question = (label: string) => `@toby ${label}: what should the release include, and what are its risks for the team this week?`;

/**
 * One whose answer keeps Toby busy for several seconds more, so what is asked next surely waits:
 * the offline model reads numbered steps back.
 */
const longQuestion = (label: string) =>
  [question(label), ...Array.from({ length: 12 }, (_, index) => `${index + 1}. check part ${index + 1} of the release notes with the whole team`)].join("\n");

/** Toby's answer to a question, as the offline model quotes it. */
const answerTo = (label: string) => new RegExp(`You said: "@toby ${label}:`);

/**
 * `count` questions at once: the first is answered, the others wait behind it. However slowly the
 * page sends them, at least two are seen waiting (the last with one of Toby's turns ahead).
 */
async function askRepeatedly(conversation: ConversationPage, channel: string, count: number) {
  await conversation.send(channel, longQuestion("number 1"));
  for (let index = 2; index <= count; index += 1) await conversation.send(channel, question(`number ${index}`));
  await expect(queuedBubbles(conversation).last()).toHaveAccessibleName(/^Toby is queued \(\d+ ahead\)$/);
}

/** Stops what still waits, so no later test queues behind it. */
async function stopQueued(conversation: ConversationPage) {
  const bubbles = queuedBubbles(conversation);
  while ((await bubbles.count()) > 0) await bubbles.first().getByRole("button", { name: "Stop" }).click({ timeout: 2_000 }).catch(() => undefined);
}

test("a question asked while the agent is busy shows queued to everyone in the room; Stop ends it before it answers", async ({ browser }) => {
  const asker = await newPerson(browser, "Asker");
  const watcher = await newPerson(browser, "Watcher");
  const channel = await asker.conversation.createChannel("queue", ["Toby"]);
  await watcher.page.reload();
  await watcher.conversation.open(channel);

  await asker.conversation.send(channel, longQuestion("first"));
  await asker.conversation.send(channel, question("second"));

  const askerQueued = queuedBubbles(asker.conversation);
  const watcherQueued = queuedBubbles(watcher.conversation);
  await expect(askerQueued).toHaveAccessibleName("Toby is queued");
  await expect(watcherQueued).toHaveAccessibleName("Toby is queued");
  // Only the person who asked (or an admin) may stop it.
  await expect(watcherQueued.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await askerQueued.getByRole("button", { name: "Stop" }).focus();
  await asker.page.keyboard.press("Enter");

  for (const { conversation } of [asker, watcher]) {
    await expect(conversation.messages().getByRole("listitem", { name: "Messages from Toby" }).filter({ hasText: "(stopped before answering)" })).toBeVisible();
    await expect(queuedBubbles(conversation)).toHaveCount(0);
  }
  // The first question is answered as usual.
  await expect(asker.conversation.messages().getByText(answerTo("first"))).toBeVisible({ timeout: 20_000 });
  // Toby answers in order: once a later question is answered, an answer to the stopped one would be here.
  await asker.conversation.send(channel, question("third"));
  // It waits for the rest of the first (long) answer, then streams its own.
  await expect(asker.conversation.messages().getByText(answerTo("third"))).toBeVisible({ timeout: 30_000 });
  await expect(asker.conversation.messages().getByText(answerTo("second"))).toHaveCount(0);
  await asker.context.close();
  await watcher.context.close();
});

test("queued turns have no axe violations in light and dark, and fit a 390 px phone", async ({ browser }) => {
  const ann = await newPerson(browser, "Ann");
  const channel = await ann.conversation.createChannel("queue", ["Toby"]);
  await ann.page.setViewportSize({ width: 390, height: 844 });
  // Eight (each answer takes a few seconds), so that some still wait after two full axe runs.
  await askRepeatedly(ann.conversation, channel, 8);

  await expectAccessible(ann.page, "queued turns");
  expect(await widerThanScreen(ann.page)).toEqual([]);
  // The last question is still waiting after both checks: they saw it.
  await expect(queuedBubbles(ann.conversation)).not.toHaveCount(0);
  await stopQueued(ann.conversation);
  await ann.context.close();
});

test("the admin's Agent turns page shows turns running and queued per provider; members are refused it", async ({ browser }) => {
  const mia = await newPerson(browser, "Mia");
  expect((await mia.page.goto("/admin/turns"))?.status()).toBe(403);
  await expect(mia.page.getByRole("heading", { name: "Forbidden" })).toBeVisible();
  await mia.context.close();

  const context = await browser.newContext();
  const chat = await context.newPage();
  await signInDemo(chat, "admin@chorus.local");
  const admin = await context.newPage();
  await admin.goto("/admin/agents");
  await admin.getByRole("link", { name: "Agent turns" }).click();
  await expect(admin.getByRole("heading", { name: "Agent turns", level: 1 })).toBeVisible();
  const offline = admin.getByRole("region", { name: "Offline model" });

  const conversation = new ConversationPage(chat);
  const channel = await conversation.createChannel("load", ["Toby"]);
  await askRepeatedly(conversation, channel, 4);
  // The page reads the counts again every few seconds, on its own.
  await expect(offline).toContainText(/Running, on all nodes\s*[1-9]/);
  await expect(offline).toContainText(/Queued\s*[1-9]/);
  await expect(offline).not.toContainText(/Oldest waiting\s*none/);
  await expectAccessible(admin, "agent turns");

  await stopQueued(conversation);
  await expect(offline).toContainText(/Queued\s*0/, { timeout: 15_000 });
  await context.close();
});
