import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { newPerson, widerThanScreen } from "./pages";

/** Opens the "⋯" menu of the last message by its author's name. */
async function openMessageMenu(page: Page, author: string) {
  const group = page.getByRole("listitem", { name: `Messages from ${author}` }).last();
  await group.getByRole("button", { name: `Actions for ${author}'s message` }).last().click();
}

/** One item of the "⋯" menu of the last message by its author's name. */
async function messageAction(page: Page, author: string, item: string) {
  await openMessageMenu(page, author);
  await page.getByRole("menuitem", { name: item }).click();
}

test("edit, reply, react and delete live for the other person, by keyboard, axe-clean at phone width in both themes", async ({ browser }) => {
  const ann = await newPerson(browser, "Ann");
  const bob = await newPerson(browser, "Bob");
  const channel = await ann.conversation.createChannel("changes", []);
  await bob.page.goto(ann.page.url());
  await expect(bob.page.getByRole("heading", { name: `# ${channel}` })).toBeVisible();

  await ann.conversation.send(channel, "teh release is friday");
  await expect(bob.conversation.messages().getByText("teh release is friday")).toBeVisible();

  // Edit by keyboard: the menu opens with Enter, arrows move, Enter picks; Enter saves.
  const menu = ann.page.getByRole("button", { name: `Actions for ${ann.user.name}'s message` }).last();
  await menu.focus();
  await menu.press("Enter");
  await ann.page.getByRole("menuitem", { name: "Edit" }).press("Enter");
  const editor = ann.page.getByRole("textbox", { name: "Edit message" });
  await editor.fill("the release is friday");
  await editor.press("Enter");
  await expect(bob.conversation.messages().getByText("the release is friday")).toBeVisible();
  await expect(bob.conversation.messages().getByRole("button", { name: "(edited)" })).toBeVisible();
  await bob.conversation.messages().getByRole("button", { name: "(edited)" }).click();
  await expect(bob.page.getByRole("region", { name: "Version history" })).toContainText("teh release is friday");

  // Bob replies (someone else's message cannot be deleted): the quote links back to the original.
  await openMessageMenu(bob.page, ann.user.name);
  await expect(bob.page.getByRole("menuitem", { name: "Delete" })).toHaveCount(0);
  await bob.page.getByRole("menuitem", { name: "Reply" }).click();
  await expect(bob.page.getByText(`Replying to ${ann.user.name}:`)).toBeVisible();
  await bob.conversation.send(channel, "works for me");
  const quote = ann.conversation.messages().getByRole("link", { name: new RegExp(`Reply to ${ann.user.name}: the release is friday`) });
  await expect(quote).toBeVisible();

  // Ann reacts from the picker (searching); Bob sees the count with who reacted.
  await messageAction(ann.page, bob.user.name, "Add reaction");
  await ann.page.getByRole("searchbox").fill("party popper");
  await ann.page.getByRole("button", { name: "party popper" }).first().click();
  const chip = bob.conversation.messages().getByRole("button", { name: /party popper: 1 reaction/ });
  await expect(chip).toBeVisible();
  await chip.click();
  await expect(ann.conversation.messages().getByRole("button", { name: /party popper: 2 reactions/ })).toBeVisible();

  // Deleting leaves a tombstone for everyone; someone else's message can't be deleted.
  await messageAction(ann.page, ann.user.name, "Delete");
  await ann.page.getByRole("group", { name: "Confirm delete" }).getByRole("button", { name: "Delete" }).click();
  await expect(bob.conversation.messages().getByText("Message deleted", { exact: true })).toBeVisible();
  // The reply's quote follows: the text is gone there too.
  await expect(bob.conversation.messages().getByRole("link", { name: `Reply to ${ann.user.name}: message deleted` })).toBeVisible();
  await expect(bob.conversation.messages().getByText("the release is friday")).toHaveCount(0);

  await bob.page.setViewportSize({ width: 390, height: 844 });
  expect(await widerThanScreen(bob.page)).toEqual([]);
  await expectAccessible(bob.page, "a conversation with edits, a reply, reactions and a tombstone");
});

test("regenerate an agent's reply, switch between its versions, and open a copied link at that message", async ({ browser }) => {
  const ann = await newPerson(browser, "Ann");
  await ann.context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const channel = await ann.conversation.createChannel("regen", ["Toby"]);
  await ann.conversation.send(channel, "@toby say something");
  const toby = ann.page.getByRole("listitem", { name: "Messages from Toby" }).last();
  await expect(toby).toBeVisible();
  const first = (await toby.locator("[data-seq]").last().innerText()).split("\n")[0]!;

  await messageAction(ann.page, "Toby", "Regenerate");
  await expect(toby.getByText("2/2")).toBeVisible({ timeout: 20_000 });
  await toby.getByRole("button", { name: "Previous version" }).click();
  await expect(toby.getByText("1/2")).toBeVisible();
  await expect(toby).toContainText(first);

  // Regenerating while it is being written is refused with the reason.
  await messageAction(ann.page, "Toby", "Regenerate");
  await messageAction(ann.page, "Toby", "Regenerate");
  await expect(ann.page.getByRole("alert").filter({ hasText: /still writing this reply/ })).toBeVisible();

  await messageAction(ann.page, ann.user.name, "Copy link");
  await expect(ann.page.getByRole("status").filter({ hasText: "Link copied." })).toBeVisible();
  const link = await ann.page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(/\/c\/[0-9a-f-]+\?at=\d+$/);
  await ann.page.goto(link);
  const seq = new URL(link).searchParams.get("at");
  await expect(ann.page.locator(`[data-seq="${seq}"]`)).toBeFocused();
  await expectAccessible(ann.page, "a conversation opened at a message, with versions");
});
