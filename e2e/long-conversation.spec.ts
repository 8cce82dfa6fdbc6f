import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { fillHistory } from "./history";
import { newPerson, widerThanScreen } from "./pages";

// A long conversation's list is virtualised (issue 22): only the rows near the view are in the
// page. Find-as-you-read still finds every loaded message, links still open at their message,
// and the list is still a list of messages for screen readers.

test("a long conversation: only rows near the view are in the page; find reaches loaded messages that are not", async ({ browser, baseURL }) => {
  const reader = await newPerson(browser, "Reader");
  const channel = await reader.conversation.createChannel("long", []);
  const needle = `kestrel${Date.now().toString(36)}`;
  // Two old messages hold the word; 300 in all.
  const conversationId = await fillHistory(baseURL!, channel, 300, (n) => (n === 7 || n === 40 ? `history ${n}: a ${needle} over the field` : `history ${n}`));
  await reader.page.reload();
  const page = reader.page;
  const scroller = page.getByTestId("message-scroller");
  await expect(reader.conversation.messages().getByText("history 300", { exact: true })).toBeVisible();

  // Only the newest page is loaded: the word is further back, for the search screen.
  await page.keyboard.press("Control+f");
  const find = page.getByRole("searchbox", { name: "Find in conversation" });
  await expect(find).toBeFocused();
  await find.fill(needle);
  const findBar = page.getByRole("search", { name: "Find in conversation" });
  await expect(findBar.getByRole("status")).toContainText(/No match in the (50|100) loaded messages/);
  await expect(findBar.getByRole("link", { name: "Search all messages" })).toHaveAttribute("href", `/search?q=${needle}&conversation=${conversationId}`);
  await find.press("Escape");
  await expect(findBar).toHaveCount(0);

  // Scrolling to the top loads it all; the page holds only the rows near the view.
  const beginning = page.getByText("This is the beginning of the conversation.");
  const atTop = async () => (await beginning.isVisible()) && (await scroller.evaluate((element) => element.scrollTop)) <= 0;
  for (let step = 0; step < 60 && !(await atTop()); step++) {
    await scroller.evaluate((element) => element.scrollTo(0, 0));
    await page.waitForTimeout(150);
  }
  await expect(beginning).toBeVisible();
  await expect(reader.conversation.messages().getByText("history 1", { exact: true })).toBeVisible();
  expect(await scroller.locator("[data-seq]").count()).toBeLessThan(200);
  await expect(page.locator('[data-seq="300"]')).toHaveCount(0);
  await page.getByRole("button", { name: "Jump to latest" }).click();
  await expect(reader.conversation.messages().getByText("history 300", { exact: true })).toBeVisible();
  await expect(page.locator('[data-seq="7"]')).toHaveCount(0);

  // Find: the newest match first, then the older one, each scrolled to and marked.
  await page.keyboard.press("Control+f");
  await find.fill(needle);
  await expect(findBar.getByRole("status")).toContainText("2 of 2 in the loaded messages");
  const marked = (seq: number) => page.locator(`[data-seq="${seq}"]`);
  await expect(marked(40)).toBeInViewport();
  await expect(marked(40)).toHaveClass(/ring-2/);
  await find.press("Enter");
  await expect(findBar.getByRole("status")).toContainText("1 of 2 in the loaded messages");
  await expect(marked(7)).toBeInViewport();
  await expect(marked(7)).toHaveClass(/ring-2/);
  await expect(scroller.locator(".ring-2")).toHaveCount(1);
  await expect(find).toBeFocused();

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await widerThanScreen(page)).toEqual([]);
  await expectAccessible(page, "a long conversation with find open, at 390 px");
  await find.press("Escape");

  await reader.context.close();
});

test("a conversation opens on its newest messages before any script runs, and the list takes their place without a second copy", async ({ browser, baseURL }) => {
  const reader = await newPerson(browser, "Opener");
  const channel = await reader.conversation.createChannel("first-screen", []);
  await fillHistory(baseURL!, channel, 120, (n) => `opening ${n}`);

  // What the server writes, painted as it is: the newest messages, at the bottom of the view.
  const withoutScripts = await browser.newContext({ storageState: await reader.context.storageState(), javaScriptEnabled: false });
  const still = await withoutScripts.newPage();
  await still.goto(reader.page.url());
  const list = still.getByRole("list", { name: "Messages" });
  await expect(list.getByText("opening 120", { exact: true })).toBeInViewport({ ratio: 1 });
  await expect(list.getByText("opening 90", { exact: true })).toHaveCount(1);
  await expect(list.getByText("opening 1", { exact: true })).toHaveCount(0);
  await withoutScripts.close();

  // With scripts, the virtualised list replaces it: one list, each message once, the newest in view.
  const page = reader.page;
  await page.reload();
  await expect(reader.conversation.messages().getByText("opening 120", { exact: true })).toBeInViewport();
  await expect(page.locator("[inert]")).toHaveCount(0);
  await expect(page.getByTestId("message-scroller")).toHaveCount(1);
  await expect(page.getByText("opening 119", { exact: true })).toHaveCount(1);
  await expectAccessible(page, "a conversation just opened");
  await reader.context.close();
});

test("a link to an old message of a long conversation opens there and keeps it in view while newer and older pages arrive", async ({ browser, baseURL }) => {
  const reader = await newPerson(browser, "Reader");
  const channel = await reader.conversation.createChannel("long", []);
  const conversationId = await fillHistory(baseURL!, channel, 300);
  const page = reader.page;
  const marked = (seq: number) => page.locator(`[data-seq="${seq}"]`);
  await page.setViewportSize({ width: 390, height: 844 });
  // It opens there (not at the newest), focused and marked.
  await page.goto(`/c/${conversationId}?at=123`);
  await expect(marked(123)).toBeFocused();
  await expect(marked(123)).toBeInViewport();
  await expect(page.getByRole("button", { name: "Jump to latest" })).toBeVisible();
  // Newer messages than its page come in by the catch-up; the view stays at the message.
  await page.waitForTimeout(1_000);
  await expect(marked(123)).toBeInViewport();
  await expectAccessible(page, "a long conversation opened at a message, at 390 px");
  await page.getByRole("button", { name: "Jump to latest" }).click();
  await expect(reader.conversation.messages().getByText("history 300", { exact: true })).toBeVisible();
  await reader.context.close();
});
