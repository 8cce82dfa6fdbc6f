import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { newPerson, signInDemo } from "./pages";

test("a panel of three agents answers, two people watch it live, and the expanded card shows every answer and vote", async ({ browser }) => {
  const watcher = await newPerson(browser, "Watcher");
  const asker = await newPerson(browser, "Asker");
  const { page, conversation } = asker;
  const channel = await conversation.createChannel("panel", ["Toby", "Ada", "Sage"]);
  await watcher.page.reload();
  await watcher.conversation.open(channel);

  // Fewer than two agents: said while typing, refused under the composer when sent, the text kept.
  await conversation.composer(channel).fill("@panel @toby on your own?");
  // The same reason the server gives, said while typing.
  await expect(conversation.composer(channel)).toHaveAccessibleDescription(/^A panel needs at least two agents of this conversation/);
  await conversation.composer(channel).press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "Not sent: A panel needs at least two agents of this conversation" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: `Message #${channel}` })).toHaveValue("@panel @toby on your own?");
  await page.getByRole("textbox", { name: `Message #${channel}` }).fill("");

  // The panel and its agents picked in the composer by keyboard: the line under it says who answers.
  const composer = conversation.composer(channel);
  await composer.pressSequentially("@pan");
  await expect(page.getByRole("option", { name: /^Panel @panel/ })).toBeVisible();
  await composer.press("Enter");
  for (const start of ["to", "ad", "sa"]) {
    await composer.pressSequentially(`@${start}`);
    await composer.press("Enter");
  }
  await composer.pressSequentially("what should we call the release?");
  await expect(composer).toHaveValue("@panel @toby @ada @sage what should we call the release?");
  await expect(page.getByText("Panel: Toby, Ada and Sage will answer together, then vote for the best answer.")).toBeVisible();
  await composer.pressSequentially(" @pa");
  await expect(page.getByRole("option", { name: /^Panel @panel/ })).toBeVisible();
  await expectAccessible(page, "composer offering panels");
  for (let typed = 0; typed < 4; typed += 1) await composer.press("Backspace");
  await composer.press("Enter");
  for (const person of [asker, watcher]) await expect(person.page.getByRole("region", { name: "Panel at work" })).toBeVisible({ timeout: 15_000 });
  for (const person of [asker, watcher]) {
    await expect(person.conversation.messages().getByRole("button", { name: "Show the panel" })).toBeVisible({ timeout: 60_000 });
  }
  await expect(watcher.page.getByText(/The panel has answered below/)).toBeVisible();

  const show = watcher.conversation.messages().getByRole("button", { name: "Show the panel" });
  await show.click();
  const details = watcher.page.getByRole("region", { name: "The panel's answers and votes" });
  const agents = details.getByRole("list", { name: "Panel agents" }).getByRole("listitem");
  await expect(agents).toHaveCount(3);
  for (const name of ["Toby", "Ada", "Sage"]) await expect(details.getByRole("listitem", { name: new RegExp(`^${name}: `) })).toContainText("(offline model)");
  await expect(details.getByRole("list", { name: "Panel votes" }).getByRole("listitem").first()).toContainText(/voted for .*'s answer: Closest to my own answer/);
  await expectAccessible(watcher.page, "panel card");

  await watcher.page.setViewportSize({ width: 390, height: 844 });
  expect(await watcher.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await asker.context.close();
  await watcher.context.close();
});

test("an admin saves a panel under a handle: a panel of one agent is refused, a good one is listed", async ({ browser }) => {
  const admin = await (await browser.newContext()).newPage();
  await signInDemo(admin, "admin@chorus.local");
  await admin.goto("/admin/agents");
  await admin.getByRole("link", { name: "Saved panels" }).click();
  await expect(admin.getByRole("heading", { name: "Saved panels" })).toBeVisible();
  const handle = `board-${Math.random().toString(36).slice(2, 6)}`;
  const form = admin.getByRole("form", { name: "New panel" });
  await form.getByLabel("Handle").fill(handle);
  await form.getByLabel("Name").fill("Review board");
  await form.getByLabel("Toby").check();
  await form.getByRole("button", { name: "Add panel" }).click();
  await expect(form.getByText("A panel needs at least two agents.")).toBeVisible();
  await form.getByLabel("Ada").check();
  await form.getByRole("button", { name: "Add panel" }).click();
  await expect(admin.getByRole("listitem", { name: `Panel @${handle}` })).toContainText("Toby, Ada · 3 rounds");
  await expectAccessible(admin, "saved panels page");
});
