import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { newPerson, signInDemo } from "./pages";

test("a question to the orchestrator routes to a forked specialist: the merged answer, the fork beside the thread and on its own page, and back", async ({ browser }) => {
  const person = await newPerson(browser, "Fork");
  const { page, conversation } = person;
  const channel = await conversation.createChannel("fork", ["Aria"]);

  await conversation.send(channel, "The checkout page got slower after Tuesday's deploy.");
  await conversation.send(channel, "@aria why is checkout slow?");
  // Aria's routing rule sends "why" questions to Toby in a forked context; Toby's answer comes back as one message.
  await expect(conversation.messages().getByText("Aria handed off to Toby · forked context")).toBeVisible({ timeout: 30_000 });
  const result = conversation.messages().getByRole("listitem", { name: "Messages from Toby" }).last();
  await expect(result).toContainText("Result of a forked context", { timeout: 30_000 });
  await expect(result).toContainText('You said: "@aria why is checkout slow?"');

  // The summary Aria handed over opens on demand.
  await conversation.messages().getByText("Aria handed off to Toby · forked context").click();
  await expect(conversation.messages().getByText("Handoff summary (Aria → Toby)")).toBeVisible();

  const openFork = result.getByRole("button", { name: "Open fork" });
  await openFork.click();
  const panel = page.getByRole("complementary", { name: "Forked context" });
  await expect(panel.getByRole("heading", { name: "Toby's forked context" })).toBeVisible();
  await expect(panel).toContainText("Finished");
  const copied = panel.getByRole("list", { name: "Copied messages" });
  await expect(copied).toContainText("The checkout page got slower after Tuesday's deploy.");
  await expect(copied.getByText("copied")).toHaveCount(2);
  await expect(panel.getByRole("list", { name: "Steps in the fork" })).toContainText("(offline model)");
  expect(page.url()).toContain("?fork=");
  await expectAccessible(page, "fork panel");
  await page.keyboard.press("Escape");
  await expect(panel).toHaveCount(0);
  await expect(openFork).toBeFocused();

  // The header lists the conversation's forks; the fork has a page of its own, and its breadcrumb leads back.
  await page.getByRole("button", { name: "Forks" }).click();
  await page.getByRole("menuitem", { name: /Toby/ }).click();
  await panel.getByRole("link", { name: "Open on its own page" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Toby's forked context" })).toBeVisible();
  await expectAccessible(page, "fork page");
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: `#${channel}` }).click();
  await expect(page.getByRole("heading", { name: `# ${channel}` })).toBeVisible();
  await expect(conversation.messages().getByText("Result of a forked context")).toBeVisible();
  await person.context.close();
});

test("an admin sets up an orchestrator: a routing rule that needs backtracking is refused, and a message is tested against the rules", async ({ browser }) => {
  const admin = await (await browser.newContext()).newPage();
  await signInDemo(admin, "admin@chorus.local");
  await admin.goto("/admin/agents");
  await admin.getByRole("link", { name: "Handoffs of Aria" }).click();
  await expect(admin.getByRole("heading", { name: "Aria's handoffs" })).toBeVisible();
  await expect(admin.getByRole("listitem", { name: "Specialist Toby" }).getByLabel("Context shared")).toHaveValue("fork");

  await admin.getByLabel("Test this message").fill("Can you refactor this TypeScript?");
  await admin.getByRole("button", { name: "Test", exact: true }).click();
  await expect(admin.getByText("Rule 1 matches: Aria hands off to Ada.")).toBeVisible();

  await admin.getByRole("button", { name: "Add rule" }).click();
  await admin.getByLabel("Rule 4 pattern").fill("(?!hello)");
  await admin.getByRole("button", { name: "Save handoffs" }).click();
  await expect(admin.getByText(/uses a look-ahead/)).toBeVisible();
  await expect(admin.getByLabel("Rule 4 pattern")).toBeFocused();
  await expectAccessible(admin, "handoffs page");

  await admin.getByRole("button", { name: "Remove rule 4" }).click();
  await admin.getByRole("button", { name: "Save handoffs" }).click();
  await expect(admin.getByText("Saved.")).toBeVisible();
});
