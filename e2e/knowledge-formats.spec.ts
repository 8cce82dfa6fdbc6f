import { makeDocx, passwordProtectedDocx } from "../test/support/make-docx";
import { expectAccessible } from "./axe";
import { expect, test } from "./fixtures";
import { signInDemo, widerThanScreen } from "./pages";

test("an admin adds a Word document made here to Scout's knowledge and sees it become ready; a protected one is refused in words, on a 390 px phone too", async ({ page }) => {
  const word = `Leave policy ${Math.random().toString(36).slice(2, 6)}.docx`;
  await signInDemo(page, "admin@chorus.local");
  await page.goto("/admin/agents");
  await page.getByRole("link", { name: "Knowledge of Scout", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Scout's knowledge" })).toBeVisible();
  const file = page.getByLabel("File", { exact: true });
  // The picker offers the new kinds, and says which they are.
  expect((await file.getAttribute("accept"))!.split(",")).toEqual(expect.arrayContaining([".docx", ".html", ".csv", ".json", ".py", ".md", ".pdf"]));
  await expect(file).toHaveAccessibleDescription(/^Accepted: Word \(\.docx\), PDF, .* up to 10 MB each\.$/);

  await file.setInputFiles({
    name: word,
    mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    buffer: Buffer.from(makeDocx(["Leave policy", ["Annual leave is ", "25 days", " a year."], "Unused days expire at the end of March."])),
  });
  await page.getByRole("button", { name: "Upload" }).click();
  const document = page.getByRole("listitem", { name: `Document ${word}` });
  await expect(document).toContainText(/Ready · 1 chunk/, { timeout: 30_000 });
  await expectAccessible(page, "knowledge page with a Word document");

  await page.setViewportSize({ width: 390, height: 844 });
  await file.setInputFiles({ name: "Salaries.docx", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", buffer: Buffer.from(passwordProtectedDocx()) });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Salaries.docx" })).toHaveText("Salaries.docx is protected by a password (or is an old-style Word file named .docx). Save a copy as .docx without a password and upload that.");
  await expect(file).toBeFocused();
  await expect(page.getByRole("listitem", { name: "Document Salaries.docx" })).toHaveCount(0);
  await expect(document).toBeVisible();
  expect(await widerThanScreen(page)).toEqual([]);
  await expectAccessible(page, "knowledge page with a refusal at 390 px");

  // Scout's answers in other specs count their knowledge: the document goes again.
  await document.getByRole("button", { name: `Delete ${word}` }).click();
  await expect(document).toHaveCount(0);
});
