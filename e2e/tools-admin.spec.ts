import type { Page } from "@playwright/test";
import { startHttpMcpServer, type HttpMcpServer } from "../test/support/mcp-servers";
import { expectAccessible } from "./axe";
import { expect, test } from "./fixtures";
import { signInDemo, widerThanScreen } from "./pages";

const TOKEN = "Bearer e2e-tools-token";

// A real MCP server (500 tools over ten pages) in this test process, refusing requests without its token.
let mcp: HttpMcpServer;
test.beforeAll(async () => {
  mcp = await startHttpMcpServer({ requireAuthorization: TOKEN });
});
test.afterAll(async () => {
  await mcp.close();
});

/** At phone width, light and dark: zero axe violations and nothing wider than the screen. */
async function expectPhoneReady(page: Page, what: string) {
  await expectAccessible(page, what);
  expect(await widerThanScreen(page), what).toEqual([]);
}

test("an admin connects an MCP server, then lets an agent use two of its tools, one asking first", async ({ browser }) => {
  test.slow(); // two admin screens, each checked by axe in light and dark, around a real MCP server
  const page = await (await browser.newContext()).newPage();
  await signInDemo(page, "admin@chorus.local");
  await page.setViewportSize({ width: 390, height: 844 });
  const name = `e2e-notes-${Math.random().toString(36).slice(2, 6)}`;

  await page.goto("/admin/agents");
  expect(await widerThanScreen(page), "the agents list with its Tools links").toEqual([]);
  await page.getByRole("link", { name: "Tools", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Tools", level: 1 })).toBeVisible();

  // A refusal names what is wrong, marks the field and keeps what was typed.
  const addForm = page.getByRole("form", { name: "Add server" });
  await addForm.getByLabel("Name", { exact: true }).fill("My Notes");
  await addForm.getByLabel("URL").fill(mcp.url);
  await addForm.getByRole("button", { name: "Add server" }).click();
  await expect(addForm.getByRole("alert")).toContainText("name must be 1–32 lowercase letters");
  await expect(addForm.getByLabel("Name", { exact: true })).toBeFocused();
  await expect(addForm.getByLabel("URL")).toHaveValue(mcp.url);
  await expectPhoneReady(page, "a refused new server");

  // Without its token the server refuses Chorus, and the list says why.
  await addForm.getByLabel("Name", { exact: true }).fill(name);
  await addForm.getByRole("button", { name: "Add server" }).click();
  const card = page.getByRole("listitem", { name: `MCP server ${name}` });
  await expect(card).toContainText("Not connected");
  await expect(card).toContainText("refused Chorus's credentials (HTTP 401)");
  await expect(addForm.getByLabel("Name", { exact: true })).toHaveValue("");

  await card.getByRole("button", { name: `Edit ${name}` }).click();
  const editForm = page.getByRole("form", { name: `Edit ${name}` });
  await editForm.getByRole("button", { name: "Add header" }).click();
  await editForm.getByLabel("Name of new header 1").fill("Authorization");
  await editForm.getByLabel("Value of new header 1").fill(TOKEN);
  await editForm.getByRole("button", { name: "Save changes" }).click();
  await expect(editForm).toHaveCount(0);
  await expect(card).toContainText("Connected");
  await expect(card).toContainText("500 tools");
  await expect(card).toContainText("Headers set: authorization");

  // The token is never shown again: the form offers to replace or remove it.
  await card.getByRole("button", { name: `Edit ${name}` }).click();
  await expect(editForm.getByRole("listitem", { name: "header authorization" })).toContainText("set");
  await expect(editForm.getByRole("button", { name: "Replace authorization" })).toBeVisible();
  expect(await page.content()).not.toContain("e2e-tools-token");
  await editForm.getByRole("button", { name: "Cancel" }).click();
  await expect(card.getByRole("button", { name: `Edit ${name}` })).toBeFocused();

  await card.getByRole("button", { name: `Test connection ${name}` }).click();
  await card.getByText("500 tools", { exact: true }).click();
  await expect(card.getByRole("list", { name: "Tools" })).toContainText("echo: Says the text back.");
  await expectPhoneReady(page, "the Tools page");

  // Toby's tools: the server's 500, found with the filter.
  await page.goto("/admin/agents");
  await page.getByRole("link", { name: "Tools of Toby" }).click();
  await expect(page.getByRole("heading", { name: "Toby's tools", level: 1 })).toBeVisible();
  const server = page.getByRole("region", { name: new RegExp(`^${name}`) });
  await expect(server).toContainText("0 of 500 tools chosen");
  const filter = server.getByLabel(`Filter ${name}'s tools`);
  await filter.fill("adds two");
  await expect(server.getByRole("checkbox")).toHaveCount(1);
  await server.getByRole("checkbox", { name: "add", exact: true }).check();
  await filter.fill("echo");
  await server.getByRole("checkbox", { name: "echo", exact: true }).check();
  // By keyboard: the "Ask first" box follows the tool's own.
  await page.keyboard.press("Tab");
  await expect(server.getByRole("checkbox", { name: "Ask first before echo runs" })).toBeFocused();
  await page.keyboard.press("Space");
  await filter.fill("");
  await expect(server).toContainText("2 of 500 tools chosen");
  await expectPhoneReady(page, "an agent's tools");
  await page.getByRole("button", { name: "Save tools" }).click();
  await expect(page.getByText("Saved: Toby may use 2 tools.")).toBeVisible();

  await page.reload();
  await expect(server).toContainText("2 of 500 tools chosen");
  await expect(server.getByRole("checkbox", { name: "echo", exact: true })).toBeChecked();
  await expect(server.getByRole("checkbox", { name: "Ask first before echo runs" })).toBeChecked();
  await expect(server.getByRole("checkbox", { name: "add", exact: true })).toBeChecked();
  await expect(server.getByRole("checkbox", { name: "Ask first before add runs" })).not.toBeChecked();

  // Deleting asks first; the server and Toby's tools of it are gone.
  await page.goto("/admin/tools");
  await card.getByRole("button", { name: `Delete ${name}` }).click();
  await expect(card.getByRole("group", { name: `Confirm deleting ${name}` }).getByRole("button", { name: "Delete", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(card).toHaveCount(0);
  await page.goto("/admin/agents");
  await page.getByRole("link", { name: "Tools of Toby" }).click();
  await expect(page.getByRole("heading", { name: "Toby's tools", level: 1 })).toBeVisible();
  await expect(server).toHaveCount(0);
});
