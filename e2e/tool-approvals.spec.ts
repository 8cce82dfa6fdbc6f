import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { newPerson, widerThanScreen } from "./pages";

// Scout is the seeded demo agent with Chorus's own notes server: adding a note asks first.

test("asking Scout to add a note shows an approval card; approving it runs the tool, shows the step and the answer", async ({ browser }) => {
  const person = await newPerson(browser, "Noter");
  await person.conversation.sidebar().getByRole("button", { name: "Scout: start a chat" }).click();
  await expect(person.page.getByRole("heading", { name: "Scout", exact: true })).toBeVisible();
  // At phone width (the sidebar folds away), from here on.
  await person.page.setViewportSize({ width: 390, height: 844 });
  const note = `Ship the beta on Friday ${Math.random().toString(36).slice(2, 6)}`;
  await person.conversation.dmComposer("Scout").fill(`add a note: ${note}`);
  await person.conversation.dmComposer("Scout").press("Enter");

  const card = person.page.getByRole("group", { name: /Scout wants to use add_note/ });
  await expect(card).toBeVisible({ timeout: 20_000 });
  await expect(card).toContainText(note);
  await expect(person.page.getByText("Scout is waiting for approval")).toBeVisible();
  expect(await widerThanScreen(person.page)).toEqual([]);
  await expectAccessible(person.page, "an approval card at 390 px");

  // By keyboard: the card's Approve button.
  await card.getByRole("button", { name: /^Approve/ }).focus();
  await person.page.keyboard.press("Enter");
  await expect(person.page.getByText(/add_note \(notes\): approved by Noter/)).toBeVisible();

  const step = person.conversation.messages().getByText(/Used add_note \(notes\)/);
  await expect(step).toBeVisible({ timeout: 20_000 });
  await expect(person.conversation.messages().getByText(/I used add_note: Saved note #\d+/)).toBeVisible({ timeout: 20_000 });
  await step.click();
  await expect(person.conversation.messages().getByText(note).last()).toBeVisible();
  expect(await widerThanScreen(person.page)).toEqual([]);
  await expectAccessible(person.page, "a tool step and the answer at 390 px");

  // The note is there for the next question, which runs without asking (search is not ask-first).
  await person.conversation.dmComposer("Scout").fill(`search the notes for ${note.split(" ").at(-1)}`);
  await person.conversation.dmComposer("Scout").press("Enter");
  const found = person.conversation.messages().getByRole("listitem").filter({ hasText: "I used search_notes:" }).last();
  await expect(found).toContainText(note, { timeout: 20_000 });
});

test("denying the call tells Scout, who says it could not add the note", async ({ browser }) => {
  const person = await newPerson(browser, "Denier");
  await person.conversation.sidebar().getByRole("button", { name: "Scout: start a chat" }).click();
  await person.conversation.dmComposer("Scout").fill("add a note: the office is closed on Monday");
  await person.conversation.dmComposer("Scout").press("Enter");
  const card = person.page.getByRole("group", { name: /Scout wants to use add_note/ });
  await card.getByRole("button", { name: /^Deny/ }).click({ timeout: 20_000 });
  await card.getByRole("textbox").fill("not a real closure");
  await card.getByRole("button", { name: /^Confirm/ }).click();
  await expect(person.conversation.messages().getByText(/could not use add_note/)).toContainText("not a real closure", { timeout: 20_000 });
});
