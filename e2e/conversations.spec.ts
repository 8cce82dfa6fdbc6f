import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { newPerson } from "./pages";

test("a DM opened twice is the same thread, and the other person sees it arrive as unread", async ({ browser }) => {
  const alice = await newPerson(browser, "Alice");
  const bob = await newPerson(browser, "Bob");

  await alice.conversation.startDirectMessage(bob.user.name);
  const firstUrl = alice.page.url();
  await alice.conversation.dmComposer(bob.user.name).fill("Just between us");
  await alice.conversation.dmComposer(bob.user.name).press("Enter");
  await expect(alice.conversation.messages().getByText("Just between us")).toBeVisible();

  await alice.conversation.open("general");
  await alice.conversation.startDirectMessage(bob.user.name);
  expect(alice.page.url()).toBe(firstUrl);
  await expect(alice.conversation.messages().getByText("Just between us")).toBeVisible();

  const dmForBob = bob.conversation.sidebarLink(alice.user.name);
  await expect(dmForBob).toHaveAccessibleName(`${alice.user.name}, 1 unread`);
  await dmForBob.click();
  await expect(bob.conversation.messages().getByText("Just between us")).toBeVisible();
  await expect(dmForBob).toHaveAccessibleName(alice.user.name);
});

test("the unread badge rises for the other person and clears when they open the channel", async ({ browser }) => {
  const alice = await newPerson(browser, "Alice");
  const bob = await newPerson(browser, "Bob");
  await alice.conversation.open("random");
  await bob.conversation.open("general");

  await bob.conversation.send("general", "first");
  await bob.conversation.send("general", "second");

  await expect(alice.conversation.sidebarLink("general")).toHaveAccessibleName("general, 2 unread");
  await expect(bob.conversation.sidebarLink("general")).toHaveAccessibleName("general");

  await alice.conversation.open("general");
  await expect(alice.page.getByRole("separator", { name: "New messages" })).toBeVisible();
  await expect(alice.conversation.sidebarLink("general")).toHaveAccessibleName("general");
});

test("typing shows for the other person and disappears when the message arrives", async ({ browser }) => {
  const alice = await newPerson(browser, "Alice");
  const bob = await newPerson(browser, "Bob");
  await alice.conversation.open("general");
  await bob.conversation.open("general");

  await alice.conversation.composer("general").pressSequentially("I am writing a long", { delay: 30 });
  await expect(bob.page.getByText(`${alice.user.name} is typing…`)).toBeVisible();

  await alice.conversation.composer("general").press("Enter");
  await expect(bob.conversation.messages().getByText("I am writing a long")).toBeVisible();
  await expect(bob.page.getByText(`${alice.user.name} is typing…`)).toBeHidden();
});

test("messages sent while a page was offline appear when it reconnects", async ({ browser }) => {
  const alice = await newPerson(browser, "Alice");
  const bob = await newPerson(browser, "Bob");
  const network = await controllableSocket(bob.page);
  await bob.page.reload();
  await alice.conversation.open("general");
  await bob.conversation.open("general");
  const banner = bob.page.getByRole("status").filter({ hasText: /Reconnecting|Connecting/ });
  await expect(banner).toBeHidden();

  network.goOffline();
  await expect(banner).toBeVisible();
  await alice.conversation.send("general", "sent while you were away");
  await expect(alice.conversation.messages().getByText("sent while you were away")).toBeVisible();

  network.goOnline();
  await expect(bob.conversation.messages().getByText("sent while you were away")).toBeVisible({ timeout: 20_000 });
  await expect(bob.conversation.messages().getByText("sent while you were away")).toHaveCount(1);
});

/** Routes the page's Socket.IO websocket through the test, which can cut it and refuse reconnects. */
async function controllableSocket(page: Page) {
  let online = true;
  const open: { close: () => Promise<void> }[] = [];
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    if (!online) return void ws.close();
    ws.connectToServer();
    open.push(ws);
  });
  return {
    goOffline() {
      online = false;
      open.splice(0).forEach((ws) => void ws.close());
    },
    goOnline() {
      online = true;
    },
  };
}

test("HTML and script in a message show as text, and empty or oversized messages are not sent", async ({ browser }) => {
  const alice = await newPerson(browser, "Alice");
  const bob = await newPerson(browser, "Bob");
  await alice.conversation.open("general");
  await bob.conversation.open("general");
  let alerted = false;
  bob.page.on("dialog", (dialog) => {
    alerted = true;
    void dialog.dismiss();
  });

  await alice.conversation.send("general", "<img src=x onerror=alert(1)> and [click me](javascript:alert(1))");
  await expect(bob.conversation.messages().getByText("<img src=x onerror=alert(1)>", { exact: false })).toBeVisible();
  await expect(bob.conversation.messages().locator("img")).toHaveCount(0);
  await expect(bob.conversation.messages().locator('a[href^="javascript"]')).toHaveCount(0);
  expect(alerted).toBe(false);

  const composer = alice.conversation.composer("general");
  await composer.fill("   ");
  await expect(alice.page.getByRole("button", { name: "Send" })).toBeDisabled();
  await composer.fill("x".repeat(17 * 1024));
  await expect(alice.page.locator("form").getByRole("alert")).toContainText("messages can be at most 16 KB");
  await expect(alice.page.getByRole("button", { name: "Send" })).toBeDisabled();
});
