import { type Page } from "@playwright/test";
import { FakeOpenAI } from "../test/support/fake-openai";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { signInDemo, widerThanScreen } from "./pages";

const form = (page: Page) => page.getByRole("region", { name: /^(Add a provider|Edit )/ });
const providerItem = (page: Page, name: string) => page.getByRole("list", { name: "Providers" }).getByRole("listitem", { name: `Provider ${name}` });

async function adminPage(browser: import("@playwright/test").Browser, path: string) {
  const page = await (await browser.newContext()).newPage();
  await signInDemo(page, "admin@chorus.local");
  await page.goto(path);
  return page;
}

test("an admin adds a provider only once it answers, and an agent then answers through it with a model from its list", async ({ browser }) => {
  const fake = await FakeOpenAI.start();
  fake.requiredKey = "sk-e2e-right";
  fake.models = ["e2e-large", "e2e-small"];
  fake.respondWith((request) => ({ content: `Through the local provider, ${request.model} heard you.` }));
  try {
    const page = await adminPage(browser, "/admin/providers");
    const suffix = Math.random().toString(36).slice(2, 6);
    const name = `Local ${suffix}`;

    await form(page).getByLabel("Name").fill(name);
    await form(page).getByLabel("Kind").selectOption("other");
    await form(page).getByLabel("Base URL").fill("http://169.254.169.254/v1");
    await form(page).getByLabel("API key").fill("sk-e2e-right");
    await form(page).getByRole("button", { name: "Test and add" }).click();
    await expect(form(page).getByLabel("Base URL")).toHaveAccessibleDescription(/link-local address \(169\.254\.x\.x\).*refused/);

    await form(page).getByLabel("Base URL").fill(fake.baseURL);
    await form(page).getByLabel("API key").fill("sk-e2e-wrong");
    await form(page).getByRole("button", { name: "Test and add" }).click();
    await expect(form(page).getByLabel("API key")).toHaveAccessibleDescription(/refused the key \(401\)/);
    await expect(providerItem(page, name)).toHaveCount(0);

    await form(page).getByLabel("API key").fill("sk-e2e-right");
    await form(page).getByRole("button", { name: "Test and add" }).press("Enter");
    await expect(page.getByRole("status").filter({ hasText: `Saved ${name}: 2 models listed.` })).toBeVisible();
    await expect(providerItem(page, name)).toContainText("key stored");
    await expect(providerItem(page, name)).toContainText("e2e-large, e2e-small");
    await expect(page.locator("body")).not.toContainText("sk-e2e-right");
    await providerItem(page, name).getByRole("button", { name: `Test connection of ${name}` }).click();
    await expect(providerItem(page, name).getByRole("status")).toHaveText("Connected: 2 models listed.");

    await page.goto("/admin/agents/new");
    await page.getByLabel("Display name").fill(`Lo ${suffix}`);
    await page.getByLabel("Handle").fill(`lo${suffix}`);
    await page.getByLabel("System prompt").fill("You answer through the local provider.");
    await page.getByLabel("Provider").selectOption({ label: name });
    await expect(page.getByLabel("Model", { exact: true })).toHaveAccessibleDescription(`${name} lists 2 models: type to choose one.`);
    await page.getByLabel("Model", { exact: true }).fill("not-listed");
    await page.getByRole("button", { name: "Create agent" }).click();
    await expect(page.getByLabel("Model", { exact: true })).toHaveAccessibleDescription(`${name} does not list not-listed. Choose one of its models, or test its connection again in Providers.`);
    await page.getByLabel("Model", { exact: true }).fill("e2e-small");
    await page.getByRole("button", { name: "Create agent" }).click();
    await expect(page.getByRole("row", { name: `Agent Lo ${suffix}` })).toContainText(`e2e-small (${name})`);

    await page.getByRole("navigation", { name: "Conversations" }).getByRole("button", { name: `Lo ${suffix}: start a chat` }).click();
    const composer = page.getByRole("textbox", { name: `Message Lo ${suffix}` });
    await composer.fill("are you there?");
    await composer.press("Enter");
    await expect(page.getByRole("list", { name: "Messages" }).getByRole("listitem", { name: `Messages from Lo ${suffix}` })).toContainText("Through the local provider, e2e-small heard you.");
    expect(fake.keysUsed.at(-1)).toBe("sk-e2e-right");
  } finally {
    await fake.close();
  }
});

test("an admin duplicates an agent (the copy starts disabled) and deletes the copy after confirming", async ({ browser }) => {
  const page = await adminPage(browser, "/admin/agents");
  await page.getByRole("row", { name: "Agent Toby" }).getByRole("button", { name: "Duplicate Toby" }).click();
  await expect(page.getByRole("heading", { name: /^Edit Toby \(copy\)/ })).toBeVisible();
  const handle = await page.getByLabel("Handle").inputValue();
  expect(handle).toMatch(/^toby-copy\d*$/);
  await page.goto("/admin/agents");
  const copy = page.getByRole("row", { name: "Agent Toby (copy)" }).filter({ hasText: `@${handle}` });
  await expect(copy).toContainText("Disabled");

  await copy.getByRole("button", { name: "Delete Toby (copy)" }).click();
  await expect(copy.getByRole("group", { name: "Delete Toby (copy)" })).toContainText("Its messages stay, under its name.");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("row", { name: "Agent Toby (copy)" }).filter({ hasText: `@${handle}` })).toHaveCount(0);
});

test("the providers screen fits a phone and is accessible in light and dark, with a refusal shown", async ({ browser }) => {
  const page = await adminPage(browser, "/admin/providers");
  await page.setViewportSize({ width: 390, height: 844 });
  await form(page).getByLabel("Kind").selectOption("azure");
  await form(page).getByLabel("API version").fill("");
  await form(page).getByRole("button", { name: "Test and add" }).click();
  await expect(form(page).getByLabel("Name")).toHaveAccessibleDescription("Name the provider.");
  await expect(form(page).getByLabel("API version")).toHaveAccessibleDescription("Azure OpenAI needs an api-version, like 2024-10-21.");
  expect(await widerThanScreen(page)).toEqual([]);
  await expectAccessible(page, "providers at 390 px, refused");
});
