import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { ConversationPage, newPerson, signInDemo } from "./pages";

test("an admin gives Toby a document, a member asks about it, and a debug user sees the chunk in the inspector", async ({ browser }) => {
  const secret = `plum-${Math.random().toString(36).slice(2, 6)}`;
  const admin = await (await browser.newContext()).newPage();
  await signInDemo(admin, "admin@chorus.local");
  await admin.goto("/admin/agents");
  await admin.getByRole("link", { name: "Knowledge of Toby", exact: true }).click();
  await expect(admin.getByRole("heading", { name: "Toby's knowledge" })).toBeVisible();
  await admin.getByLabel("File", { exact: true }).setInputFiles({
    name: "Wifi guide.md",
    mimeType: "text/markdown",
    buffer: Buffer.from(`# Office wifi\n\nThe guest wifi network is called ${secret}. Its password changes every Monday and is printed at the reception desk.`),
  });
  await admin.getByRole("button", { name: "Upload" }).click();
  const document = admin.getByRole("listitem", { name: "Document Wifi guide.md" });
  await expect(document).toContainText(/Ready · 1 chunk/, { timeout: 30_000 });
  await expectAccessible(admin, "knowledge page");

  // A bad file is refused with the reason, nothing listed.
  await admin.getByLabel("File", { exact: true }).setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]) });
  await admin.getByRole("button", { name: "Upload" }).click();
  await expect(admin.getByRole("alert").filter({ hasText: "photo.png" })).toHaveText(/^photo\.png: only Word \(\.docx\), PDF, Markdown \(\.md\), text \(\.txt\), web pages \(\.html\), CSV, TSV, JSON and source code/);

  const member = await newPerson(browser, "Wifi");
  await member.conversation.open("random");
  await member.conversation.send("random", "@toby what is the guest wifi network called?");
  const reply = member.conversation.messages().getByRole("listitem", { name: "Messages from Toby" }).last();
  await expect(reply).toContainText("knowledge: 1 item", { timeout: 30_000 });

  const debug = await (await browser.newContext()).newPage();
  await signInDemo(debug, "debug@chorus.local");
  const conversation = new ConversationPage(debug);
  await conversation.open("random");
  const seen = conversation.messages().getByRole("listitem", { name: "Messages from Toby" }).last();
  await seen.getByRole("button", { name: "Inspect context of this reply" }).click();
  const dialog = debug.getByRole("dialog", { name: "What the agent saw" });
  await dialog.locator("summary", { hasText: "Knowledge" }).click();
  await expect(dialog.getByRole("list", { name: "Knowledge items" })).toContainText("from Wifi guide.md");
  // Hybrid retrieval (the default): the one chunk first in both rankings, 1/61 + 1/61.
  await expect(dialog.getByRole("list", { name: "Knowledge items" })).toContainText("vector rank 1 · text rank 1 · fused score 0.0328");
});

test("an admin writes a procedure (a trigger that needs backtracking is refused) and reviews the list", async ({ page }) => {
  await signInDemo(page, "admin@chorus.local");
  await page.goto("/admin/agents");
  await page.getByRole("link", { name: "Procedures of Ada" }).click();
  await expect(page.getByRole("heading", { name: "Ada's procedures" })).toBeVisible();
  const form = page.getByRole("form", { name: "New procedure" });
  const name = `Code review ${Math.random().toString(36).slice(2, 6)}`;
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Trigger (optional)").fill("(?=.*review)code");
  await form.getByLabel("Steps").fill("Read the diff\nRun the tests\nLeave comments");
  await form.getByRole("button", { name: "Add procedure" }).click();
  await expect(form.getByText(/uses a look-ahead/)).toBeVisible();
  await expect(form.getByLabel("Trigger (optional)")).toBeFocused();
  await form.getByLabel("Trigger (optional)").fill("\\breview\\b");
  await form.getByRole("button", { name: "Add procedure" }).click();
  const item = page.getByRole("listitem", { name: `Procedure ${name}` });
  await expect(item).toContainText("approved");
  await expect(item).toContainText("Run the tests");
  await expectAccessible(page, "procedures page");
});

test("a member ends a session with an agent, sees what it remembers, and forgets it", async ({ browser }) => {
  const person = await newPerson(browser, "Rememberer");
  await person.conversation.sidebar().getByRole("button", { name: "Ada: start a chat" }).click();
  await expect(person.page.getByRole("heading", { name: "Ada" })).toBeVisible();
  await person.conversation.dmComposer("Ada").fill("Please remember that my team deploys on Thursdays at 10:00.");
  await person.conversation.dmComposer("Ada").press("Enter");
  await expect(person.conversation.messages().getByRole("listitem", { name: "Messages from Ada" })).toContainText("Set OPENAI_API_KEY", { timeout: 30_000 });

  await person.page.getByRole("button", { name: "End session" }).click();
  // The episodes are written in the background; the button says what was kept when they are.
  const outcome = person.page.getByRole("status").filter({ hasText: /Session ended: Ada kept \d+ facts? about you\./ });
  await expect(outcome).toBeVisible({ timeout: 20_000 });
  await outcome.getByText(/Session ended/).click();
  await expect(outcome).toContainText("Thursdays at 10:00");
  await expectAccessible(person.page, "a session's end, what was kept shown");
  await expect(person.page.getByRole("button", { name: "End session" })).toBeEnabled();
  await person.page.getByRole("button", { name: "What Ada remembers" }).click();
  const dialog = person.page.getByRole("dialog", { name: "What Ada remembers about you" });
  await expect(dialog.getByRole("list", { name: "Memories" })).toContainText("Thursdays at 10:00");
  await expectAccessible(person.page, "memories dialog");
  await dialog.getByRole("button", { name: /^Forget this/ }).click();
  await expect(dialog).toContainText("Ada remembers nothing about you yet.");
  await person.page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await person.context.close();
});
