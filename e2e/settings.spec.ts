import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { AuthPage, newPerson, widerThanScreen } from "./pages";

const profile = (page: Page) => page.getByRole("region", { name: "Profile" });
const password = (page: Page) => page.getByRole("region", { name: "Password" });
/** The time beside the newest message group, as the page writes it. */
const lastMessageTime = (page: Page) => page.getByRole("main").locator("time").last();
const rootBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test("a person renames themself and picks a theme and a time format, by keyboard; all hold after a reload", async ({ browser }) => {
  const alice = await newPerson(browser, "Alice");
  const channel = await alice.conversation.createChannel("clock", []);
  await alice.conversation.send(channel, "What time is it?");
  // The browser's language (en-US) writes 12-hour times until told otherwise.
  await expect(lastMessageTime(alice.page)).toHaveText(/^\d\d:\d\d\s?(AM|PM)$/);

  await alice.page.goto("/settings");
  await alice.page.emulateMedia({ colorScheme: "light" });
  const light = await rootBackground(alice.page);
  const name = profile(alice.page).getByLabel("Name");
  await name.fill("Alice Renamed");
  // Radio groups by keyboard: focus the checked one, arrows choose.
  await profile(alice.page).getByRole("radio", { name: "As my system" }).focus();
  await alice.page.keyboard.press("ArrowRight");
  await alice.page.keyboard.press("ArrowRight");
  await expect(profile(alice.page).getByRole("radio", { name: "Dark" })).toBeChecked();
  await profile(alice.page).getByRole("radio", { name: /^24-hour/ }).check();
  await profile(alice.page).getByRole("button", { name: "Save profile" }).press("Enter");
  await expect(profile(alice.page).getByRole("status")).toHaveText("Saved.");

  // Dark at once, whatever the system says.
  await expect(alice.page.locator("html")).toHaveClass("dark");
  const dark = await rootBackground(alice.page);
  expect(dark).not.toBe(light);
  await alice.page.reload();
  await expect(alice.page.locator("html")).toHaveClass("dark");
  await expect(profile(alice.page).getByRole("radio", { name: "Dark" })).toBeChecked();
  await expect(profile(alice.page).getByLabel("Name")).toHaveValue("Alice Renamed");
  await expect(alice.page.getByRole("button", { name: /Alice Renamed/ })).toBeVisible();

  await alice.conversation.open(channel);
  await expect(lastMessageTime(alice.page)).toHaveText(/^\d\d:\d\d$/);

  // Back to the system's theme: the page follows the system again.
  await alice.page.goto("/settings");
  await profile(alice.page).getByRole("radio", { name: "As my system" }).check();
  await profile(alice.page).getByRole("button", { name: "Save profile" }).click();
  await expect(profile(alice.page).getByRole("status")).toHaveText("Saved.");
  await expect(alice.page.locator("html")).not.toHaveClass(/dark|light/);
  expect(await rootBackground(alice.page)).toBe(light);
  await alice.page.emulateMedia({ colorScheme: "dark" });
  expect(await rootBackground(alice.page)).toBe(dark);
});

test("a password change refuses a wrong current password in words, then signs out the person's other sessions", async ({ browser }) => {
  const bob = await newPerson(browser, "Bob");
  const elsewhere = await browser.newContext();
  const phone = await elsewhere.newPage();
  await new AuthPage(phone).signIn(bob.user);
  await expect(phone.getByRole("navigation", { name: "Conversations" })).toBeVisible();

  await bob.page.goto("/settings");
  await password(bob.page).getByLabel("Current password").fill("not-my-password-1");
  await password(bob.page).getByLabel("New password").fill("a-new-password-2");
  await password(bob.page).getByRole("button", { name: "Change password" }).click();
  const current = password(bob.page).getByLabel("Current password");
  await expect(current).toHaveAccessibleDescription("Your current password is not right.");
  await expect(current).toHaveAttribute("aria-invalid", "true");

  await current.fill(bob.user.password);
  await password(bob.page).getByLabel("New password").fill("short");
  await password(bob.page).getByRole("button", { name: "Change password" }).click();
  await expect(password(bob.page).getByLabel("New password")).toHaveAccessibleDescription("Use at least 8 characters.");

  await password(bob.page).getByLabel("New password").fill("a-new-password-2");
  await password(bob.page).getByRole("checkbox", { name: "Sign out my other sessions" }).check();
  await password(bob.page).getByRole("button", { name: "Change password" }).click();
  await expect(password(bob.page).getByRole("status")).toHaveText("Password changed. Your other sessions are signed out.");

  // The other browser is told at once; this one stays signed in.
  await expect(phone.getByRole("status").filter({ hasText: "Signed out." })).toBeVisible();
  await bob.page.reload();
  await expect(bob.page.getByRole("heading", { name: "Settings" })).toBeVisible();
  await elsewhere.close();
});

test("the settings screen fits a phone and is accessible in light and dark, with its errors shown", async ({ browser }) => {
  const cy = await newPerson(browser, "Cy");
  await cy.page.setViewportSize({ width: 390, height: 844 });
  await cy.page.goto("/settings");
  await expect(profile(cy.page).getByLabel("Name")).toBeVisible();
  expect(await widerThanScreen(cy.page)).toEqual([]);
  await expectAccessible(cy.page, "settings at 390 px");

  await profile(cy.page).getByLabel("Name").fill(" ");
  await profile(cy.page).getByRole("button", { name: "Save profile" }).click();
  await expect(profile(cy.page).getByLabel("Name")).toHaveAccessibleDescription("Tell us your name.");
  await password(cy.page).getByRole("button", { name: "Change password" }).click();
  await expect(password(cy.page).getByLabel("Current password")).toHaveAccessibleDescription("Enter your current password.");
  await expectAccessible(cy.page, "settings with errors at 390 px");
});

test("deleting one's account asks again and for the password; the messages stay, under 'Deleted user'", async ({ browser }) => {
  const dee = await newPerson(browser, "Dee");
  const eli = await newPerson(browser, "Eli");
  const words = `Goodbye, all ${Date.now().toString(36)}`;
  await dee.conversation.open("general");
  await dee.conversation.send("general", words);
  await expect(dee.conversation.messages().getByText(words)).toBeVisible();

  await dee.page.goto("/settings");
  const section = dee.page.getByRole("region", { name: "Delete account" });
  await section.getByRole("button", { name: "Delete my account…" }).click();
  await section.getByLabel("Your password, to confirm").fill("not-my-password-1");
  await section.getByRole("button", { name: "Delete my account for good" }).click();
  await expect(section.getByLabel("Your password, to confirm")).toHaveAccessibleDescription("That is not your password.");
  await expectAccessible(dee.page, "deleting an account, refused");

  await section.getByLabel("Your password, to confirm").fill(dee.user.password);
  await section.getByRole("button", { name: "Delete my account for good" }).click();
  await expect(dee.page).toHaveURL(/\/sign-in$/);
  await new AuthPage(dee.page).signIn(dee.user);
  await expect(dee.page.locator("form").getByRole("alert")).toHaveText("Wrong email or password.");

  // Names already on a screen are not rewritten: Eli sees the change once the page loads again.
  await eli.page.reload();
  await eli.conversation.open("general");
  const message = eli.conversation.messages().getByRole("listitem").filter({ hasText: words });
  await expect(message).toContainText("Deleted user");
  await expect(message).not.toContainText(dee.user.name);
});
