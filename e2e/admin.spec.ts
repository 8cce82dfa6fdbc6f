import { expect, test } from "./fixtures";
import { ConversationPage, newPerson, signInDemo } from "./pages";

test("members and debug users get a forbidden page instead of the admin area", async ({ browser }) => {
  const mia = await newPerson(browser, "Mia");
  const response = await mia.page.goto("/admin/agents");
  expect(response?.status()).toBe(403);
  await expect(mia.page.getByRole("heading", { name: "Forbidden" })).toBeVisible();
  await expect(mia.page.getByRole("link", { name: "New agent" })).toHaveCount(0);
  await mia.page.getByRole("button", { name: new RegExp(mia.user.name) }).click();
  await expect(mia.page.getByRole("menuitem", { name: "Sign out" })).toBeVisible();
  await expect(mia.page.getByRole("menuitem", { name: "Manage agents" })).toHaveCount(0);

  const debugPage = await (await browser.newContext()).newPage();
  await signInDemo(debugPage, "debug@chorus.local");
  expect((await debugPage.goto("/admin/agents/new"))?.status()).toBe(403);
  await expect(debugPage.getByRole("heading", { name: "Forbidden" })).toBeVisible();
  expect((await debugPage.goto("/no/such/page"))?.status()).toBe(404);
  expect((await debugPage.goto(`/c/${crypto.randomUUID()}`))?.status()).toBe(404);
  await expect(debugPage.getByRole("form", { name: "Agent settings" })).toHaveCount(0);
});

test("an admin creates an agent (fixing field errors first), edits it, adds it to a channel where it answers, then disables it", async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await signInDemo(page, "admin@chorus.local");
  const suffix = Math.random().toString(36).slice(2, 6);
  const name = `Scout ${suffix}`;
  const handle = `scout${suffix}`;

  await page.getByRole("button", { name: /Adam Admin/ }).click();
  await page.getByRole("menuitem", { name: "Manage agents" }).click();
  await expect(page.getByRole("heading", { name: "Agents", level: 1 })).toBeVisible();
  await expect(page.getByRole("row", { name: "Agent Toby" })).toBeVisible();
  await page.getByRole("link", { name: "New agent" }).click();

  // Without a key on the server, an OpenAI-compatible agent would answer offline: the form says so.
  await page.getByLabel("Provider").selectOption("openai");
  await expect(page.getByLabel("Provider")).toHaveAccessibleDescription(/^OPENAI_API_KEY is not set on the server/);
  await page.getByLabel("Provider").selectOption("offline");
  await page.getByLabel("Display name").fill(name);
  await page.getByLabel("Handle").fill(`@${handle}`);
  await page.getByLabel("Model", { exact: true }).fill("not a model!");
  await page.getByLabel("History window").fill("0");
  await page.getByRole("button", { name: "Create agent" }).click();
  await expect(page.getByRole("form", { name: "Agent settings" }).getByRole("alert")).toHaveText("Some settings need fixing: see the fields marked below.");
  await expect(page.getByLabel("System prompt")).toHaveAccessibleDescription("The system prompt cannot be empty.");
  await expect(page.getByLabel("System prompt")).toBeFocused();
  await expect(page.getByLabel("History window")).toHaveAccessibleDescription("History window must be at least 1.");
  await expect(page.getByLabel("Model", { exact: true })).toHaveAccessibleDescription(/^Unknown model format/);
  // What was typed survives the refusal.
  await expect(page.getByLabel("Display name")).toHaveValue(name);

  await page.getByLabel("System prompt").fill("You scout ahead and report back. ".repeat(60));
  await page.getByLabel("Model", { exact: true }).fill("offline");
  await page.getByLabel("History window").fill("20");
  await page.getByLabel("Working memory budget (tokens)").fill("256");
  await page.getByRole("button", { name: "Create agent" }).click();
  await expect(page.getByLabel("Working memory budget (tokens)")).toHaveAccessibleDescription(/^The budget \(256 tokens\) must be larger than the system prompt/);

  await page.getByLabel("System prompt").fill("You scout ahead and report back.");
  await page.getByRole("button", { name: "Create agent" }).click();
  const row = page.getByRole("row", { name: `Agent ${name}` });
  await expect(row).toContainText(`@${handle}`);
  await expect(row).toContainText("20 messages");

  await row.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page.getByLabel("System prompt")).toHaveValue("You scout ahead and report back.");
  await page.getByLabel("History window").fill("30");
  await page.getByLabel("Pruning strategy").selectOption("summarize");
  await expect(page.getByLabel("Knowledge retrieval")).toHaveValue("hybrid");
  await page.getByLabel("Knowledge retrieval").selectOption("vector");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(row).toContainText("30 messages");
  await row.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page.getByLabel("Pruning strategy")).toHaveValue("summarize");
  await expect(page.getByLabel("Knowledge retrieval")).toHaveValue("vector");
  await page.getByRole("button", { name: "Cancel" }).click();

  const conversation = new ConversationPage(page);
  await conversation.open("general");
  await page.getByRole("button", { name: "Add agent" }).click();
  await page.getByRole("menuitem", { name: new RegExp(`^${name}`) }).click();
  await expect(conversation.messages().getByText(`Adam Admin added ${name} (@${handle}) to the conversation.`)).toBeVisible();
  await expect(page.getByTestId("participants-summary")).toContainText(`@${handle}`);

  await conversation.send("general", `@${handle} what is over the hill?`);
  await expect(conversation.messages().getByRole("listitem", { name: `Messages from ${name}` })).toContainText(`You said: "@${handle} what is over the hill?"`);

  // Someone else has Chorus open: the new agent is in their sidebar, and leaves it without a reload.
  const member = await newPerson(browser, "Watcher");
  const agentEntry = member.conversation.sidebar().getByRole("button", { name: `${name}: start a chat` });
  await expect(agentEntry).toBeVisible();

  await page.goto("/admin/agents");
  await row.getByRole("button", { name: `Disable ${name}` }).click();
  await expect(agentEntry).toHaveCount(0);
  await expect(row).toContainText("Disabled");
  await expect(row.getByRole("button", { name: `Enable ${name}` })).toBeVisible();

  // A disabled agent stays in the room but answers nobody, and the composer says so.
  await conversation.open("general");
  await expect(page.getByTestId("participants-summary")).toContainText(`@${handle} (disabled)`);
  await conversation.send("general", `@${handle} are you still there?`);
  await expect(page.getByText(`${name} is disabled by an admin and will not answer.`)).toBeVisible();
  await expect(conversation.messages().getByText(`You said: "@${handle} are you still there?"`)).toHaveCount(0);
});
