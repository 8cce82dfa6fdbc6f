import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { expect, test } from "./fixtures";
import { newPerson, widerThanScreen } from "./pages";

const markdown = ["# Release notes", "", "- faster search", "- **bold** claims", "", "<b>raw html</b> stays text", ""].join("\n");
// 150 people: the preview lays out the first 100 and says so. A quoted field holds the delimiter and a quote.
const csv = ["name,team,note", '"Smith, Ann",search,"says ""hi"""', ...Array.from({ length: 149 }, (_, index) => `Person ${index},files,ok`), ""].join("\n");

/** Opens a file's preview with the keyboard, as a person tabbing through the message would. */
async function openPreview(page: Page, name: string) {
  const button = page.getByRole("list", { name: "Attached files" }).getByRole("button", { name: `Preview ${name}` });
  await button.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  await expect(dialog.getByRole("link", { name: "Download" })).toHaveAttribute("href", /^\/api\/attachments\/[0-9a-f-]{36}$/);
  return { button, dialog };
}

/** Escape closes the preview and gives focus back to the button that opened it. */
async function closeWithEscape(page: Page, { button, dialog }: Awaited<ReturnType<typeof openPreview>>) {
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(button).toBeFocused();
}

test("a Markdown file and a CSV file open in previews by keyboard, fit a phone and pass axe in light and dark", async ({ browser }) => {
  const ann = await newPerson(browser, "Ann");
  const channel = await ann.conversation.createChannel("previews", []);
  await ann.page.locator('form input[type="file"]').setInputFiles([
    { name: "release-notes.md", mimeType: "text/markdown", buffer: Buffer.from(markdown) },
    { name: "people.csv", mimeType: "text/csv", buffer: Buffer.from(csv) },
  ]);
  const toSend = ann.page.getByRole("list", { name: "Files to send" });
  await expect(toSend.getByRole("listitem")).toHaveCount(2);
  await expect(toSend.getByRole("progressbar")).toHaveCount(0);
  await ann.conversation.send(channel, "notes and the team list");
  await expect(ann.conversation.messages().getByRole("button", { name: "Preview people.csv" })).toBeVisible();
  await ann.page.setViewportSize({ width: 390, height: 844 });

  const notes = await openPreview(ann.page, "release-notes.md");
  const rendered = notes.dialog.getByRole("region", { name: "Preview of release-notes.md" });
  await expect(rendered.getByText("Release notes", { exact: true })).toBeVisible();
  await expect(rendered.getByRole("listitem")).toHaveText(["faster search", "bold claims"]);
  await expect(rendered.locator("strong")).toHaveText("bold");
  // Markdown is rendered, HTML inside it is not: it shows as the text it is.
  await expect(rendered).toContainText("<b>raw html</b> stays text");
  await expect(rendered.locator("b")).toHaveCount(0);
  expect(await widerThanScreen(ann.page)).toEqual([]);
  await expectAccessible(ann.page, "a Markdown preview at 390 px");
  await closeWithEscape(ann.page, notes);

  const people = await openPreview(ann.page, "people.csv");
  const table = people.dialog.getByRole("table");
  await expect(table.getByRole("columnheader")).toHaveText(["name", "team", "note"]);
  await expect(table.getByRole("row").nth(1).getByRole("cell")).toHaveText(["Smith, Ann", "search", 'says "hi"']);
  await expect(table.getByRole("row")).toHaveCount(101);
  await expect(table.locator("caption")).toHaveText("people.csv: Showing 100 of 150 rows");
  expect(await widerThanScreen(ann.page)).toEqual([]);
  await expectAccessible(ann.page, "a CSV preview at 390 px");
  await closeWithEscape(ann.page, people);
});
