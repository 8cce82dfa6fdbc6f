import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { AuthPage, newPerson, signInDemo, widerThanScreen } from "./pages";

test("sign-in and sign-up pages have no axe violations, errors shown included", async ({ page }) => {
  await page.goto("/sign-in");
  await expectAccessible(page, "sign-in");
  await new AuthPage(page).signIn({ email: "nobody@example.test", password: "wrong-password-1" });
  await expect(page.locator("form").getByRole("alert")).toBeVisible();
  await expectAccessible(page, "sign-in with an error");
  await page.goto("/sign-up");
  await expectAccessible(page, "sign-up");
});

test("a channel with markdown, mentions and an agent reply, and an agent chat, have no axe violations", async ({ browser }) => {
  const ann = await newPerson(browser, "Ann");
  await ann.conversation.open("general");
  await ann.conversation.send("general", "| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst x = \"hi\";\n```\n\n> quoted\n\n- one\n- two\n\n[a link](https://example.com) @toby please look");
  await expect(ann.conversation.messages().getByRole("listitem", { name: /Messages from Toby/ }).last()).toBeVisible({ timeout: 20_000 });
  await expectAccessible(ann.page, "channel");

  await ann.conversation.sidebar().getByRole("button", { name: "Toby: start a chat" }).click();
  await expect(ann.page.getByRole("heading", { name: "Toby" })).toBeVisible();
  await ann.conversation.dmComposer("Toby").fill("hello");
  await ann.conversation.dmComposer("Toby").press("Enter");
  await expect(ann.conversation.messages().getByRole("listitem", { name: /Messages from Toby/ }).last()).toBeVisible({ timeout: 20_000 });
  await expectAccessible(ann.page, "agent chat");
  await ann.context.close();
});

test("the admin list and the agent form have no axe violations", async ({ page }) => {
  await signInDemo(page, "admin@chorus.local");
  await page.goto("/admin/agents");
  await expect(page.getByRole("heading", { name: "Agents", level: 1 })).toBeVisible();
  await expectAccessible(page, "admin list");
  await page.goto("/admin/agents/new");
  await expect(page.getByRole("form", { name: "Agent settings" })).toBeVisible();
  await expect(page.getByLabel("Knowledge retrieval")).toHaveAccessibleDescription("Hybrid also finds exact words such as error codes and names.");
  await expectAccessible(page, "agent form");
  await page.goto("/settings");
  await expectAccessible(page, "settings");
});

test("every settings and admin screen fits a 390 px phone: nothing wider than the screen", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInDemo(page, "admin@chorus.local");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/admin/agents");
  const agent = await page.getByRole("link", { name: "Edit Toby" }).getAttribute("href");
  for (const screen of ["/settings", "/admin/agents", "/admin/agents/new", agent, `${agent}/knowledge`, `${agent}/procedures`, `${agent}/handoffs`, "/admin/panels", "/admin/turns", "/admin/usage"]) {
    await page.goto(screen!);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await widerThanScreen(page), screen!).toEqual([]);
  }
  // The agents' facts a phone has no column for are under their names.
  await page.goto("/admin/agents");
  await expect(page.getByRole("row", { name: "Agent Toby" })).toContainText("50 messages");
  await context.close();
});
