import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { ConversationPage, newPerson, signInDemo } from "./pages";

test("a debug user inspects what an agent with a small budget saw: pruned messages are struck through with their reason", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  await signInDemo(page, "debug@chorus.local");
  const conversation = new ConversationPage(page);
  const channel = await conversation.createChannel("inspect", ["Sage"]);

  // A long conversation for Sage's 600-token working memory (posted like a script would, with the session).
  const conversationId = page.url().split("/c/")[1]!;
  for (let i = 1; i <= 14; i++) {
    const response = await page.request.post(`/api/conversations/${conversationId}/messages`, {
      headers: { origin: baseURL! },
      data: { content: `Point ${i}: we reviewed the release checklist, the flaky tests and the staging database once more, and agreed that the demo on Friday shows the new search and the inspector.` },
    });
    expect(response.status()).toBe(201);
  }
  await conversation.send(channel, "@sage what did we decide?");
  const reply = conversation.messages().getByRole("listitem", { name: "Messages from Sage" }).last();
  await expect(reply).toContainText("Set OPENAI_API_KEY", { timeout: 30_000 });
  await expect(reply).toContainText(/I received: .*summary of seq/);

  const inspect = reply.getByRole("button", { name: "Inspect context of this reply" });
  await inspect.click();
  const dialog = page.getByRole("dialog", { name: "What the agent saw" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(/of 600 tokens used/);
  const history = dialog.getByRole("list", { name: "History items" });
  await expect(history.locator("del").first()).toBeVisible();
  await expect(history).toContainText("excluded: summarized");
  await expect(dialog.getByRole("list", { name: "Memory retrieval timeline" })).toContainText("Knowledge");
  await dialog.getByRole("button", { name: "Copy the messages as JSON" }).click();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as { role: string; content: string }[];
  expect(copied[0]).toMatchObject({ role: "system", content: expect.stringContaining("You are Sage") });
  expect(copied.at(-1)).toMatchObject({ role: "user", content: "@sage what did we decide?" });
  await expectAccessible(page, "context inspector");

  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(inspect).toBeFocused();

  // At phone width the inspector fills the screen without sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  await inspect.click();
  await expect(dialog).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.keyboard.press("Escape");
  await context.close();
});

test("members do not get the context inspector", async ({ browser }) => {
  const mia = await newPerson(browser, "Member");
  await mia.conversation.open("random");
  await mia.conversation.send("random", "@toby hello");
  const reply = mia.conversation.messages().getByRole("listitem", { name: "Messages from Toby" }).last();
  await expect(reply).toContainText("Set OPENAI_API_KEY", { timeout: 30_000 });
  await expect(reply.getByRole("button", { name: "Inspect context of this reply" })).toHaveCount(0);
  await mia.context.close();
});
