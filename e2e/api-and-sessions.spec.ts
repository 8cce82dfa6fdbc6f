import { randomUUID } from "node:crypto";
import { request as playwrightRequest } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newPerson } from "./pages";

test("a personal API token posts into a channel as its owner, live in the browser; revoked, it is refused", async ({ browser, baseURL }) => {
  const alice = await newPerson(browser, "Alice");
  await alice.page.getByRole("button", { name: new RegExp(alice.user.name) }).click();
  await alice.page.getByRole("menuitem", { name: "Settings and API tokens" }).click();
  await expect(alice.page.getByRole("heading", { name: "API tokens" })).toBeVisible();
  await alice.page.getByLabel("Token name").fill("deploy bot");
  await alice.page.getByRole("button", { name: "Create token" }).click();
  const token = (await alice.page.getByLabel("New API token").textContent())!;
  expect(token).toMatch(/^chorus_/);
  await expect(alice.page.getByRole("listitem", { name: "Token deploy bot" })).toContainText("never used");

  // A script, with no browser cookies: what the README's curl examples do.
  const script = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  const conversations = await (await script.get("/api/conversations")).json();
  const general = conversations.data.find((conversation: { title: string }) => conversation.title === "general");
  await alice.conversation.open("general");
  const clientId = randomUUID();
  const posted = await script.post(`/api/conversations/${general.id}/messages`, { data: { content: "Deployed v2 from the pipeline", clientId } });
  expect(posted.status()).toBe(201);
  expect((await script.post(`/api/conversations/${general.id}/messages`, { data: { content: "Deployed v2 from the pipeline", clientId } })).status()).toBe(200);
  await expect(alice.conversation.messages().getByText("Deployed v2 from the pipeline")).toHaveCount(1);

  await alice.page.goto("/settings");
  await alice.page.getByRole("button", { name: "Revoke deploy bot" }).click();
  await expect(alice.page.getByRole("listitem", { name: "Token deploy bot" })).toContainText("Revoked");
  const refused = await script.post(`/api/conversations/${general.id}/messages`, { data: { content: "after revoking" } });
  expect(refused.status()).toBe(401);
  await script.dispose();
  await alice.context.close();
});

test("signing out in one tab says so in the other tab of that session", async ({ browser }) => {
  const bob = await newPerson(browser, "Bob");
  await bob.conversation.open("general");
  const otherTab = await bob.context.newPage();
  await otherTab.goto("/");
  await expect(otherTab.getByRole("navigation", { name: "Conversations" })).toBeVisible();

  await otherTab.getByRole("button", { name: new RegExp(bob.user.name) }).click();
  await otherTab.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(otherTab).toHaveURL(/\/sign-in$/);

  await expect(bob.page.getByRole("status").filter({ hasText: "Signed out." })).toBeVisible();
  await expect(bob.page.getByRole("link", { name: "Sign in again" })).toBeVisible();
  await bob.context.close();
});
