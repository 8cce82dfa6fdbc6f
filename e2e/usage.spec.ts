import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { ConversationPage, newPerson, signInDemo, widerThanScreen } from "./pages";

/** Asks the agent in the chat open on the page; its newest messages (the caller waits for the answer in them). */
async function ask(page: Page, name: string, text: string) {
  const conversation = new ConversationPage(page);
  await expect(conversation.dmComposer(name)).toBeVisible();
  await conversation.dmComposer(name).fill(text);
  await conversation.dmComposer(name).press("Enter");
  return conversation.messages().getByRole("listitem", { name: `Messages from ${name}` }).last();
}

test("an admin reads an agent's tokens and cost as a chart and a table, filters them, downloads them as CSV, and a monthly cap stops the agent", async ({ browser }) => {
  test.slow();
  const page = await (await browser.newContext()).newPage();
  await signInDemo(page, "admin@chorus.local");
  const suffix = Math.random().toString(36).slice(2, 6);
  const name = `Meter ${suffix}`;

  // An agent of this test's own, priced; a cap of zero is refused on its field and nothing is created.
  const create = async (cap: string) => {
    await page.goto("/admin/agents/new");
    await page.getByLabel("Display name").fill(name);
    await page.getByLabel("Handle").fill(`meter${suffix}`);
    await page.getByLabel("System prompt").fill("You count tokens.");
    await page.getByLabel("Input price (USD per 1M tokens)").fill("2");
    await page.getByLabel("Output price (USD per 1M tokens)").fill("8");
    await page.getByLabel("Monthly token cap").fill(cap);
    await page.getByRole("button", { name: "Create agent" }).click();
  };
  await create("0");
  await expect(page.getByLabel("Monthly token cap")).toHaveAccessibleDescription("Monthly token cap must be more than 0 tokens: leave it empty for no cap.");
  await expect(page.getByLabel("Monthly token cap")).toBeFocused();
  await page.goto("/admin/agents");
  await expect(page.getByRole("row", { name: `Agent ${name}` })).toHaveCount(0);
  await create("");
  await expect(page.getByRole("row", { name: `Agent ${name}` })).toBeVisible();

  await new ConversationPage(page).sidebar().getByRole("button", { name: `${name}: start a chat` }).click();
  await expect(await ask(page, name, "how many tokens is this?")).toContainText("(offline model)");
  const chat = page.url();

  await page.goto("/admin/agents");
  await page.getByRole("link", { name: "Usage", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Usage", level: 1 })).toBeVisible();
  const filters = page.getByRole("form", { name: "Usage filters" });
  await filters.getByLabel("Group by").selectOption("agent");
  await filters.getByLabel("Agent").selectOption({ label: name });
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/groupBy=agent/);
  await expect(page.getByRole("img", { name: /^Bar chart of input and output tokens per agent/ }).locator(".recharts-wrapper > svg")).toBeVisible();
  await expect(page.getByRole("img", { name: /^Bar chart/ }).locator(".recharts-bar-rectangle")).toHaveCount(2);

  const table = page.getByRole("table");
  const rows = table.locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole("rowheader")).toHaveText(name);
  const cells = rows.first().getByRole("cell");
  const total = Number((await cells.nth(2).innerText()).split("\n")[0]!.replaceAll(",", ""));
  expect(total).toBeGreaterThan(0);
  await expect(cells.nth(3)).not.toHaveText("$0.00");
  await expect(table.locator("tfoot")).toContainText(total.toLocaleString("en"));

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^chorus-usage-by-agent-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.csv$/);
  const lines = readFileSync((await file.path())!, "utf8").split("\r\n");
  expect(lines[0]).toBe("Agent,Input tokens,Output tokens,Total tokens,Cost (USD),Turns");
  expect(lines[1]).toMatch(new RegExp(`^${name},\\d+,\\d+,${total},0\\.0\\d+,1$`));
  expect(lines[2]).toMatch(new RegExp(`^Total,\\d+,\\d+,${total},`));

  // At a phone's width the page fits, and it has no axe violations in light or dark.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("img", { name: /^Bar chart/ }).locator(".recharts-wrapper > svg")).toBeVisible();
  expect(await widerThanScreen(page)).toEqual([]);
  await expectAccessible(page, "usage page at 390 px");
  await page.setViewportSize({ width: 1280, height: 800 });

  // A cap already used up: admins are warned, and the agent says so instead of calling its model.
  const row = page.getByRole("row", { name: `Agent ${name}` });
  await page.goto("/admin/agents");
  await row.getByRole("link", { name: `Edit ${name}` }).click();
  await page.getByLabel("Monthly token cap").fill("1");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(row).toContainText(/Monthly token cap reached: [\d,]+ of 1 token used/);
  await page.goto(chat);
  await expect(await ask(page, name, "one more?")).toContainText(`${name} has reached its monthly token cap (1 token); an admin can raise it in the agent's settings.`);

  await page.goto("/admin/usage");
  await expect(page.getByRole("list", { name: "Agents' caps and prices" }).getByRole("listitem", { name })).toContainText("Monthly token cap reached");
  await page.goto("/admin/agents");
  await row.getByRole("button", { name: `Disable ${name}` }).click();
  await expect(row).toContainText("Disabled");
});

test("the usage page and its CSV are for admins only, and a download with a wrong date says which", async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await signInDemo(page, "admin@chorus.local");
  const refused = await page.request.get("/api/admin/usage.csv?groupBy=day&from=2026-02-30");
  expect(refused.status()).toBe(400);
  expect((await refused.json()).error).toMatchObject({ message: "From is not a date in the calendar.", fields: { from: "From is not a date in the calendar." } });
  // The page keeps the other filters and names the refused one at its field.
  await page.goto("/admin/usage?from=2026-02-30&groupBy=person");
  await expect(page.getByLabel("From (UTC day)")).toHaveAccessibleDescription("From is not a date in the calendar.");
  await expect(page.getByRole("heading", { name: /^Per person who asked/ })).toBeVisible();

  const mia = await newPerson(browser, "Mia");
  expect((await mia.page.request.get("/api/admin/usage.csv")).status()).toBe(403);
  expect((await mia.page.goto("/admin/usage"))?.status()).toBe(403);
});
