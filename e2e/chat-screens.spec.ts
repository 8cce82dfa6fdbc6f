import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { fillHistory } from "./history";
import { newPerson, uniqueUser } from "./pages";

/**
 * Scrolls up by `by` px as a reader's wheel does (the wheel event, then the scroll) and, in the
 * same task (before any page can arrive), notes what is at the top.
 */
const scrollUp = (page: Page, by: number) =>
  page.getByTestId("message-scroller").evaluate((scroller, distance) => {
    scroller.dispatchEvent(new WheelEvent("wheel", { deltaY: -distance, bubbles: true }));
    scroller.scrollBy(0, -distance);
    const top = scroller.getBoundingClientRect().top;
    for (const element of scroller.querySelectorAll<HTMLElement>("[data-seq]")) {
      const box = element.getBoundingClientRect();
      if (box.bottom > top + 1) return { seq: element.dataset.seq!, offset: Math.round(box.top - top) };
    }
    return null;
  }, by);

const offsetOf = (page: Page, seq: string) =>
  page.getByTestId("message-scroller").evaluate((scroller, target) => {
    const element = scroller.querySelector<HTMLElement>(`[data-seq="${target}"]`)!;
    return Math.round(element.getBoundingClientRect().top - scroller.getBoundingClientRect().top);
  }, seq);

test("scrolling up through 300 messages loads older pages as the top nears, keeping the message being read in place", async ({ browser, baseURL }) => {
  const channel = `history-${Math.random().toString(36).slice(2, 7)}`;
  const reader = await newPerson(browser, "Reader");
  await reader.page.getByRole("button", { name: "New channel" }).click();
  await reader.page.getByLabel("Channel name").fill(channel);
  await reader.page.getByRole("button", { name: "Create" }).click();
  await expect(reader.page.getByRole("heading", { name: `# ${channel}` })).toBeVisible();
  // The form closes once the channel exists.
  await expect(reader.page.getByLabel("Channel name")).toHaveCount(0);
  await fillHistory(baseURL!, channel, 300);
  await reader.page.reload();
  const scroller = reader.page.getByTestId("message-scroller");
  await expect(reader.conversation.messages().getByText("history 300", { exact: true })).toBeVisible();
  // The page is live once it has opened at the newest message (server-rendered, it starts at the top).
  await expect.poll(() => scroller.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight)).toBeLessThan(48);

  // The list is virtualised: what is in the page is a run of consecutive messages near the view.
  const rendered = () => scroller.locator("[data-seq]").evaluateAll((elements) => elements.map((element) => Number((element as HTMLElement).dataset.seq)));
  const seen = new Set<number>();
  let pagesArrived = 0;
  reader.page.on("requestfinished", (request) => {
    if (request.url().includes("beforeSeq=")) pagesArrived += 1;
  });
  let checked = 0;
  // Up to the very top: the beginning loaded and scrolled to (the list keeps its place as pages arrive).
  const atTop = async () => (await reader.page.getByText("This is the beginning of the conversation.").isVisible()) && (await scroller.evaluate((element) => element.scrollTop)) <= 0;
  for (let step = 0; step < 150; step++) {
    if (await atTop()) break;
    const arrived = pagesArrived;
    const before = await scrollUp(reader.page, 400);
    await reader.page.waitForTimeout(200);
    const seqs = await rendered();
    // In order, with no gap and no duplicate.
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, index) => seqs[0]! + index));
    seqs.forEach((seq) => seen.add(seq));
    // What the reader was looking at has not moved since, whether or not a page arrived above it.
    if (before) expect(Math.abs((await offsetOf(reader.page, before.seq)) - before.offset)).toBeLessThanOrEqual(2);
    if (before && pagesArrived > arrived) checked += 1;
  }
  expect(checked).toBeGreaterThanOrEqual(3);
  await expect(reader.page.getByText("This is the beginning of the conversation.")).toBeVisible();
  (await rendered()).forEach((seq) => seen.add(seq));
  // Every message was shown on the way up, from the first; never all of them at once.
  expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, index) => index + 1));
  expect((await rendered()).length).toBeLessThan(200);
  await expect(reader.page.getByRole("button", { name: "Load older messages" })).toHaveCount(0);
  await reader.context.close();
});

test("at phone width the sidebar is a drawer that opens, navigates and closes, and nothing scrolls sideways", async ({ browser }) => {
  const phone = await newPerson(browser, "Phone");
  // Signing up lands in #general; a drawer opened before that navigation ends would close with it.
  await expect(phone.page.getByRole("heading", { name: "# general" })).toBeVisible();
  await phone.page.setViewportSize({ width: 390, height: 844 });
  await expect(phone.conversation.sidebar()).toBeHidden();
  const toggle = phone.page.getByRole("button", { name: "Conversations" });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await phone.conversation.sidebarLink("random").click();
  await expect(phone.page.getByRole("heading", { name: "# random" })).toBeVisible();
  await expect(phone.conversation.sidebar()).toBeHidden();
  const marker = `long line ${Math.random().toString(36).slice(2, 8)}:`;
  await phone.conversation.send("random", `${marker} ${"word ".repeat(80)}https://example.com/${"x".repeat(120)}`);
  await expect(phone.conversation.messages().getByText(marker)).toBeVisible();
  expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await toggle.click();
  await phone.page.keyboard.press("Escape");
  await expect(phone.conversation.sidebar()).toBeHidden();
  await expect(toggle).toBeFocused();
  await phone.context.close();
});

test("by keyboard alone: skip link, menus with arrows and Escape, send, mention, stop", async ({ browser }) => {
  const kim = await newPerson(browser, "Kim");
  const page = kim.page;
  await kim.conversation.open("random");
  await kim.conversation.open("general");
  await expect(page).toHaveTitle(/#general · Chorus$/);
  // Opening a conversation puts the keyboard in its composer.
  await expect(kim.conversation.composer("general")).toBeFocused();

  // The user menu: arrows move, Escape closes and returns to the button.
  const userButton = page.getByRole("button", { name: new RegExp(kim.user.name) });
  await userButton.focus();
  await page.keyboard.press("Enter");
  const account = page.getByRole("menu", { name: "Account" });
  await expect(account.getByRole("menuitem").first()).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(account.getByRole("menuitem", { name: "Sign out" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(account.getByRole("menuitem").first()).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(account).toHaveCount(0);
  await expect(userButton).toBeFocused();

  // The direct-message picker and Add agent behave the same; Add agent brings Toby into a
  // channel of Kim's own (a shared channel may have other people's replies streaming).
  await page.getByRole("button", { name: "New direct message" }).focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menu", { name: "Start a direct message with" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu", { name: "Start a direct message with" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "New direct message" })).toBeFocused();

  const channel = `keys-${Math.random().toString(36).slice(2, 7)}`;
  await page.getByRole("button", { name: "New channel" }).focus();
  await page.keyboard.press("Enter");
  await page.keyboard.type(channel);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: `# ${channel}` })).toBeVisible();
  await page.getByRole("button", { name: "Add agent" }).focus();
  await page.keyboard.press("ArrowDown");
  const agents = page.getByRole("menu", { name: "Agents to add" });
  await expect(agents.getByRole("menuitem").first()).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(agents).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Add agent" })).toBeFocused();
  await page.keyboard.press("Enter");
  await agents.getByRole("menuitem", { name: /^Toby/ }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("participants-summary")).toContainText("@toby");

  // Mention by keyboard, send with Enter, then Stop the reply from the keyboard.
  const composer = kim.conversation.composer(channel);
  await composer.focus();
  await page.keyboard.type("@tob");
  await expect(page.getByRole("option", { name: /Toby/ })).toBeVisible();
  await page.keyboard.press("Enter");
  await page.keyboard.type("count to a hundred slowly");
  await page.keyboard.press("Enter");
  const live = kim.conversation.messages().getByRole("listitem", { name: "Toby is replying" });
  await expect(live.getByRole("button", { name: "Stop" })).toBeVisible();
  await live.getByRole("button", { name: "Stop" }).focus();
  await page.keyboard.press("Enter");
  await expect(kim.conversation.messages().getByRole("listitem", { name: "Messages from Toby" }).last()).toContainText("(stopped)");

  // The skip link is the first stop and lands on the page's content.
  await page.goto("/settings");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("#main")).toBeFocused();
  await kim.context.close();
});

test("only the person who asked (or an admin) sees Stop on an agent's reply", async ({ browser }) => {
  const asker = await newPerson(browser, "Asker");
  const watcher = await newPerson(browser, "Watcher");
  await asker.conversation.open("general");
  await watcher.conversation.open("general");
  await asker.conversation.send("general", "@toby tell me a long story");
  const askerLive = asker.conversation.messages().getByRole("listitem", { name: "Toby is replying" });
  const watcherLive = watcher.conversation.messages().getByRole("listitem", { name: "Toby is replying" });
  await expect(askerLive.getByRole("button", { name: "Stop" })).toBeVisible();
  await expect(watcherLive).toBeVisible();
  await expect(watcherLive.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await asker.context.close();
  await watcher.context.close();
});

test("a table and a code block render with cells, a language label and a copy button that copies; a reply shows its cost", async ({ browser }) => {
  const context = await browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  const { AuthPage, ConversationPage } = await import("./pages");
  await new AuthPage(page).signUp(uniqueUser("Coder"));
  const conversation = new ConversationPage(page);
  await conversation.open("random");
  await conversation.send("random", '| name | role |\n|---|---|\n| Toby | agent |\n\n```python\nprint("hello")\n```\n\n@toby review this');
  const mine = conversation.messages().getByRole("listitem", { name: /^Messages from Coder/ }).last();
  await expect(mine.getByRole("cell", { name: "agent" })).toBeVisible();
  await expect(mine.getByRole("columnheader", { name: "role" })).toBeVisible();
  const code = mine.getByRole("figure", { name: "python code" });
  await expect(code).toContainText("python");
  await code.getByRole("button", { name: "Copy code" }).click();
  await expect(code.getByRole("button", { name: "Copied code" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('print("hello")');

  const reply = conversation.messages().getByRole("listitem", { name: "Messages from Toby" }).last();
  await expect(reply).toContainText("Set OPENAI_API_KEY", { timeout: 20_000 });
  await reply.getByRole("button", { name: "Details of this reply" }).click();
  const details = reply.getByRole("group", { name: "Reply details" });
  await expect(details).toContainText("offline model");
  await expect(details).toContainText(/Tokens in\s*\d+/);
  await expect(details).toContainText(/Latency\s*\d+\.\d\d s/);
  await page.keyboard.press("Escape");
  await expect(details).toHaveCount(0);
  await context.close();
});
