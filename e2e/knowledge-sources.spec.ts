import type { Page } from "@playwright/test";
import { makeDocx } from "../test/support/make-docx";
import { expectAccessible } from "./axe";
import { expect, test } from "./fixtures";
import { newPerson, signInDemo, widerThanScreen } from "./pages";

/** Opens a source with the keyboard and checks the dialog shows its cited passage, Close focused. */
async function openSource(page: Page, name: string, passage: string) {
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: `[1] ${name}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  const cited = dialog.getByRole("region", { name: `Passage 1 in ${name}` }).getByRole("region", { name: "Cited passage" });
  await expect(cited).toContainText(passage);
  return dialog;
}

test("an admin gives Ada a Word document; a member asks, sees the answer's sources, follows [1] to one and opens it, by keyboard, on a phone too", async ({ browser }) => {
  const name = `Plant care ${Math.random().toString(36).slice(2, 6)}.docx`;
  const passage = "The office plant is watered every Tuesday by the facilities team.";
  const admin = await (await browser.newContext()).newPage();
  await signInDemo(admin, "admin@chorus.local");
  await admin.goto("/admin/agents");
  await admin.getByRole("link", { name: "Knowledge of Ada", exact: true }).click();
  await expect(admin.getByRole("heading", { name: "Ada's knowledge" })).toBeVisible();
  await admin.getByLabel("File", { exact: true }).setInputFiles({
    name,
    mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    buffer: Buffer.from(makeDocx(["Plant care", passage, "Its pot is turned a quarter every month so it grows straight."])),
  });
  await admin.getByRole("button", { name: "Upload" }).click();
  await expect(admin.getByRole("listitem", { name: `Document ${name}` })).toContainText(/Ready · 1 chunk/, { timeout: 30_000 });

  const member = await newPerson(browser, "Gardener");
  const channel = await member.conversation.createChannel("sources", ["Ada"]);
  await member.conversation.send(channel, "@ada who waters the office plant?");
  const reply = member.conversation.messages().getByRole("listitem", { name: "Messages from Ada" }).last();
  const sources = reply.getByRole("list", { name: "Sources" });
  await expect(sources).toBeVisible({ timeout: 30_000 });
  const source = sources.getByRole("button", { name: new RegExp(`^\\[1\\] ${name.replace(/\./g, "\\.")} Plant care The office plant is watered`) });
  await expect(source).toBeVisible();

  // The offline model cites its first source as [1]; the marker links to it and moves focus there.
  const marker = reply.getByRole("link", { name: `[1] source: ${name}` });
  await expect(marker).toHaveAttribute("href", /^#source-[0-9a-f-]{36}-1$/);
  await marker.focus();
  await member.page.keyboard.press("Enter");
  await expect(source).toBeFocused();
  await expectAccessible(member.page, "an answer with its sources");

  const dialog = await openSource(member.page, name, passage);
  await expectAccessible(member.page, "a source open in its dialog");
  await member.page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(source).toBeFocused();

  await member.page.setViewportSize({ width: 390, height: 844 });
  expect(await widerThanScreen(member.page)).toEqual([]);
  await expectAccessible(member.page, "an answer with its sources at 390 px");
  await source.focus();
  await openSource(member.page, name, passage);
  expect(await widerThanScreen(member.page)).toEqual([]);
  await expectAccessible(member.page, "a source open in its dialog at 390 px");
  await member.page.keyboard.press("Escape");
  await expect(source).toBeFocused();

  // The document deleted later: the source says so, with nothing to open.
  await admin.getByRole("listitem", { name: `Document ${name}` }).getByRole("button", { name: `Delete ${name}` }).click();
  await expect(admin.getByRole("listitem", { name: `Document ${name}` })).toHaveCount(0);
  await member.page.reload();
  const removed = member.conversation.messages().getByRole("listitem", { name: "Messages from Ada" }).last().getByRole("list", { name: "Sources" }).getByRole("listitem");
  await expect(removed).toHaveText(`[1] ${name} — removed`);
  await expect(removed.getByRole("button")).toHaveCount(0);
  await expectAccessible(member.page, "a source whose document was deleted");
});
