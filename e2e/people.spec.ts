import { type Browser, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { AuthPage, signInDemo, uniqueUser, widerThanScreen } from "./pages";

const invites = (page: Page) => page.getByRole("region", { name: "Invite links" });
const person = (page: Page, name: string) => page.getByRole("list", { name: "People" }).getByRole("listitem", { name });

async function adminOnPeople(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInDemo(page, "admin@chorus.local");
  await page.getByRole("button", { name: /^Adam Admin/ }).click();
  await page.getByRole("menuitem", { name: "People and invites" }).click();
  await expect(page.getByRole("heading", { name: "People", level: 1 })).toBeVisible();
  return page;
}

/** Follows an invite link in a browser of its own and creates the account it offers. */
async function signUpByInvite(browser: Browser, link: string, name: string) {
  const page = await (await browser.newContext()).newPage();
  const user = uniqueUser(name);
  await page.goto(link);
  return { page, user };
}

test("an admin invites someone by link with a role; the link signs up one account with it, then is refused", async ({ browser }) => {
  const admin = await adminOnPeople(browser);
  await invites(admin).getByLabel("Role").selectOption("debug");
  await invites(admin).getByLabel("Expires after").selectOption("1");
  await invites(admin).getByRole("button", { name: "Create invite link" }).press("Enter");
  const link = (await invites(admin).getByLabel("New invite link").textContent())!;
  expect(link).toMatch(/\/sign-up\?invite=[\w-]{20,}$/);

  const { page: guest, user } = await signUpByInvite(browser, link, "Guest");
  await expect(guest.getByText("You are invited to join as debug.", { exact: false })).toBeVisible();
  await guest.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(guest, "sign-up with an invite at 390 px");
  await guest.setViewportSize({ width: 1280, height: 800 });
  await guest.getByLabel("Name").fill(user.name);
  await guest.getByLabel("Email").fill(user.email);
  await guest.getByLabel("Password").fill(user.password);
  await guest.getByRole("button", { name: "Create account" }).click();
  await expect(guest.getByRole("navigation", { name: "Conversations" })).toBeVisible();
  await expect(guest.getByRole("button", { name: new RegExp(`${user.name}.*debug`) })).toBeVisible();

  await admin.reload();
  await expect(invites(admin).getByRole("list", { name: "Invite links" }).getByRole("listitem").first()).toContainText(`used by ${user.name}`);
  await expect(person(admin, user.name)).toContainText(user.email);

  const { page: late } = await signUpByInvite(browser, link, "Late");
  await expect(late.getByText("This invite link was already used. Ask an admin for a new one.", { exact: false })).toBeVisible();
});

test("an admin changes a role and deactivates a person: their tab is signed out at once and sign-in is refused, in words", async ({ browser }) => {
  const admin = await adminOnPeople(browser);
  const context = await browser.newContext();
  const page = await context.newPage();
  const user = uniqueUser("Temp");
  await new AuthPage(page).signUp(user);
  await expect(page.getByRole("navigation", { name: "Conversations" })).toBeVisible();

  await admin.reload();
  const row = person(admin, user.name);
  await row.getByLabel(`Role of ${user.name}`).selectOption("admin");
  await row.getByRole("button", { name: `Change role of ${user.name}` }).click();
  await expect(row.getByLabel(`Role of ${user.name}`)).toHaveValue("admin");
  await page.reload();
  await expect(page.getByRole("button", { name: new RegExp(`${user.name}.*admin`) })).toBeVisible();

  await row.getByRole("button", { name: `Deactivate ${user.name}` }).click();
  await expect(row.getByRole("group", { name: `Deactivate ${user.name}` })).toBeVisible();
  await admin.keyboard.press("Enter"); // the confirming button has the focus
  await expect(row).toContainText("deactivated");
  await expect(page.getByRole("status").filter({ hasText: "Signed out." })).toBeVisible();

  await new AuthPage(page).signIn(user);
  await expect(page.locator("form").getByRole("alert")).toHaveText("This account is deactivated. Ask an admin to reactivate it.");

  await row.getByRole("button", { name: `Reactivate ${user.name}` }).click();
  await expect(row).not.toContainText("deactivated");
  await new AuthPage(page).signIn(user);
  await expect(page.getByRole("navigation", { name: "Conversations" })).toBeVisible();
  await context.close();
});

test("the people screen fits a phone and is accessible in light and dark", async ({ browser }) => {
  const admin = await adminOnPeople(browser);
  await admin.setViewportSize({ width: 390, height: 844 });
  await invites(admin).getByRole("button", { name: "Create invite link" }).click();
  await expect(invites(admin).getByLabel("New invite link")).toBeVisible();
  expect(await widerThanScreen(admin)).toEqual([]);
  await expectAccessible(admin, "people at 390 px");

  // No one deactivates themself: their own row has no such button.
  const self = admin.getByRole("list", { name: "People" }).getByRole("listitem").filter({ hasText: "(you)" });
  await expect(self.getByRole("button", { name: /^Deactivate/ })).toHaveCount(0);
});
