import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { newPerson } from "./pages";

test("a mention from another person appears in Mentions and replies at once, and opens the message", async ({ browser }) => {
  const ann = await newPerson(browser, "Ann");
  const bo = await newPerson(browser, "Bo");
  const handle = bo.user.name.toLowerCase().replace(/\s+/g, ".");
  const inboxLink = bo.conversation.sidebar().getByRole("link", { name: /^Mentions and replies/ });

  await inboxLink.click();
  await expect(bo.page.getByRole("heading", { name: "Mentions and replies", level: 1 })).toBeVisible();
  await expect(bo.page.getByText("Nothing yet. When someone @mentions you")).toBeVisible();
  await expectAccessible(bo.page, "an empty inbox");

  await ann.conversation.open("general");
  await ann.conversation.send("general", `@${handle} can you check the numbers?`);

  // Live: no reload.
  const list = bo.page.getByRole("list", { name: "Mentions and replies" });
  const item = list.getByRole("link", { name: new RegExp(`Unread general ${ann.user.name} mentioned you .*@${handle} can you check the numbers\\?`) });
  await expect(item).toBeVisible();
  await expect(inboxLink).toHaveAccessibleName("Mentions and replies, 1 unread");

  await bo.page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(bo.page, "the inbox with an unread mention at 390 px");

  // Keyboard: the item is a link like any other.
  await item.focus();
  await bo.page.keyboard.press("Enter");
  await expect(bo.page).toHaveURL(/\/c\/[\w-]+\?at=\d+$/);
  await expect(bo.page.getByRole("heading", { name: "# general" })).toBeVisible();
  await expect(bo.conversation.messages().getByText(`@${handle} can you check the numbers?`)).toBeVisible();
  // Answering reads the conversation: the sidebar (beside it again on a wide screen) counts nothing.
  await bo.conversation.send("general", "On it");
  await bo.page.setViewportSize({ width: 1280, height: 800 });
  await expect(inboxLink).toHaveAccessibleName("Mentions and replies");
});

test("Settings offers notifications while Chorus is closed, and says how turning them on went", async ({ browser }) => {
  const bo = await newPerson(browser, "Bo");
  await bo.context.grantPermissions(["notifications"]);
  await bo.page.goto("/settings");
  const section = bo.page.getByRole("region", { name: "Desktop notifications" });
  const toggle = section.getByRole("checkbox", { name: "Also notify me when Chorus is closed" });
  await expect(toggle).not.toBeChecked();

  await toggle.click();
  // Headless Chromium refuses to subscribe (it has no push service): either it subscribed, or it says why not.
  await expect(toggle).toHaveAccessibleDescription(/^(On: this browser shows them even when Chorus is closed\.|This browser could not subscribe \(.+\)\. Check that it allows notifications for this site, or try again later\.)$/, { timeout: 20_000 });
  const answer = (await toggle.evaluate((input) => document.getElementById(input.getAttribute("aria-describedby")!)!.textContent))!;
  test.info().annotations.push({ type: "push", description: answer });
  await expect(toggle).toBeChecked({ checked: answer.startsWith("On:") });
  await expectAccessible(bo.page, "settings with the push toggle");
});
