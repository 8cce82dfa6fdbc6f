import { expect, test } from "./fixtures";
import { AuthPage, newPerson, uniqueUser } from "./pages";

test("two people who just signed up talk in a shared channel without reloading", async ({ browser }) => {
  const alice = await newPerson(browser, "Alice");
  const bob = await newPerson(browser, "Bob");

  await alice.conversation.open("general");
  await bob.conversation.open("general");

  await alice.conversation.send("general", "Hello Bob, can you see this?");

  await expect(bob.conversation.messages().getByText("Hello Bob, can you see this?")).toBeVisible();
  await expect(bob.conversation.messages().getByRole("listitem", { name: `Messages from ${alice.user.name}` })).toBeVisible();

  await bob.conversation.send("general", "Loud and clear");
  await expect(alice.conversation.messages().getByText("Loud and clear")).toBeVisible();

  await alice.context.close();
  await bob.context.close();
});

test("sign-in errors do not say whether the email or the password was wrong", async ({ page }) => {
  const user = uniqueUser("Carol");
  await new AuthPage(page).signUp(user);
  await expect(page.getByRole("navigation", { name: "Conversations" })).toBeVisible();
  await page.getByRole("button", { name: new RegExp(user.name) }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  await new AuthPage(page).signIn({ email: user.email, password: "wrong-password-1" });
  await expect(page.locator("form").getByRole("alert")).toHaveText("Wrong email or password.");
  await new AuthPage(page).signIn({ email: "nobody@example.test", password: user.password });
  await expect(page.locator("form").getByRole("alert")).toHaveText("Wrong email or password.");
  // A malformed email is a field error, not a wrong password.
  await new AuthPage(page).signIn({ email: "not-an-email", password: user.password });
  await expect(page.getByText("Enter a valid email address, like name@example.com.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
});

test("sign-up shows field errors for a taken email and a weak password", async ({ page }) => {
  const user = uniqueUser("Dave");
  await new AuthPage(page).signUp(user);
  await expect(page.getByRole("navigation", { name: "Conversations" })).toBeVisible();
  await page.context().clearCookies();

  await new AuthPage(page).signUp({ ...user, name: "Dave Again" });
  await expect(page.getByText("An account with this email already exists. Sign in instead.")).toBeVisible();
  // The way out is a link, and the keyboard is already on the field to fix.
  await expect(page.getByLabel("Email")).toBeFocused();
  await page.getByRole("link", { name: "Sign in instead." }).click();
  await expect(page).toHaveURL(/\/sign-in$/);

  await new AuthPage(page).signUp({ ...uniqueUser("Erin"), password: "password" });
  await expect(page.getByText("Too weak: mix letters with at least one number or symbol.")).toBeVisible();
});

test("signed-out visitors are sent to sign in, and unknown pages say so", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/no/such/page");
  await expect(page.getByRole("heading", { name: "Nothing here" })).toBeVisible();
});

test("the health endpoint reports the database and realtime", async ({ request }) => {
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ status: "ok", database: { status: "up" }, realtime: { status: "up" } });
});
