import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { newPerson, widerThanScreen } from "./pages";

/**
 * Two channels of the person's own, each with a message holding `word` (which no other test
 * writes), made through the HTTP API with the page's session as a script would. Returns the
 * channels' names.
 */
async function writeInTwoChannels(page: Page, word: string): Promise<string[]> {
  const origin = new URL(page.url()).origin;
  const names: string[] = [];
  for (const [prefix, text] of [
    ["birds", `A ${word} landed on the roof`],
    ["lake", `Another ${word} waded by the lake`],
  ] as const) {
    const name = `${prefix}-${Math.random().toString(36).slice(2, 7)}`;
    const opened = await page.request.post("/api/conversations", { headers: { origin }, data: { type: "channel", name, agentIds: [] } });
    expect(opened.status()).toBe(201);
    const { conversationId } = (await opened.json()).data as { conversationId: string };
    const posted = await page.request.post(`/api/conversations/${conversationId}/messages`, { headers: { origin }, data: { content: text } });
    expect(posted.status()).toBe(201);
    names.push(name);
  }
  return names;
}

const searchBox = (page: Page) => page.getByRole("searchbox", { name: "Search messages" });
const status = (page: Page) => page.getByRole("main").getByRole("status");
const results = (page: Page) => page.getByRole("list", { name: "Search results" });

test("search as you type, narrow to a conversation, and open a result at its message", async ({ browser }) => {
  // The first to call the API routes and open the search screen: the dev server compiles them meanwhile.
  test.slow();
  const alice = await newPerson(browser, "Alice");
  const word = `heron${Date.now().toString(36)}`;
  const [birds] = await writeInTwoChannels(alice.page, word);

  // Ctrl+K from anywhere opens search with the cursor in the box (once the page has hydrated).
  await expect(async () => {
    await alice.page.keyboard.press("Control+k");
    await expect(alice.page).toHaveURL(/\/search$/, { timeout: 2_000 });
  }).toPass();
  await expect(searchBox(alice.page)).toBeFocused();

  await searchBox(alice.page).pressSequentially(word, { delay: 20 });
  await expect(status(alice.page)).toHaveText("2 results");
  await expect(results(alice.page).locator("mark").first()).toHaveText(word);
  await expect(alice.page).toHaveURL(new RegExp(`/search\\?q=${word}$`));

  await alice.page.getByRole("combobox", { name: "Conversation" }).selectOption({ label: `#${birds}` });
  await expect(status(alice.page)).toHaveText("1 result");
  const result = results(alice.page).getByRole("link");
  await expect(result).toHaveCount(1);
  await expect(result).toContainText(`A ${word} landed on the roof`);
  await expect(result).toContainText(birds!);

  await result.press("Enter");
  await expect(alice.page).toHaveURL(/\/c\/[0-9a-f-]{36}\?at=\d+$/);

  // Nothing matches: said in words, for screen readers too.
  await alice.page.goto(`/search?q=${word}zzz`);
  await expect(status(alice.page)).toHaveText("No messages match");
});

test("the search screen fits a phone, with a refusal said in words, and is accessible in light and dark", async ({ browser }) => {
  const alice = await newPerson(browser, "Alice");
  const word = `egret${Date.now().toString(36)}`;
  await writeInTwoChannels(alice.page, word);
  await alice.page.setViewportSize({ width: 390, height: 844 });

  await alice.page.goto(`/search?q=${word}`);
  await expect(status(alice.page)).toHaveText("2 results");
  expect(await widerThanScreen(alice.page)).toEqual([]);
  await expectAccessible(alice.page, "search results at 390 px");

  await searchBox(alice.page).fill("the -and");
  await expect(status(alice.page)).toContainText("Nothing to search for");
  await expect(results(alice.page)).toBeHidden();
  await expectAccessible(alice.page, "a refused search at 390 px");
});
