import { type Browser, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { newPerson, widerThanScreen } from "./pages";

// The development server compiles a page on its first visit: the channel browser is compiled
// here, not in the middle of a step with 10 seconds to pass.
test.beforeAll(async ({ request }) => {
  await request.get("/channels");
});

/** Bob, and Alice with a new channel of hers (created after Bob arrived, so he sees it listed). */
async function aliceWithChannel(browser: Browser, prefix: string) {
  const bob = await newPerson(browser, "Bob");
  const alice = await newPerson(browser, "Alice");
  const channel = await alice.conversation.createChannel(prefix, []);
  return { alice, bob, channel };
}

/** The header's settings dialog of the open conversation. */
async function openSettings(page: Page) {
  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: /^Settings of / });
  await expect(dialog).toBeVisible();
  return dialog;
}

test("a channel's creator renames it and sets its topic; another member sees both live", async ({ browser }) => {
  test.slow(); // several people, each a browser of their own
  const { alice, bob, channel } = await aliceWithChannel(browser, "plans");
  await expect(bob.conversation.sidebarLink(channel)).toBeVisible();

  const dialog = await openSettings(alice.page);
  await dialog.getByLabel("Name", { exact: true }).fill(`${channel}-q3`);
  await dialog.getByLabel("Topic", { exact: true }).fill("Release planning for the third quarter");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByRole("status")).toHaveText("Saved.");
  await expectAccessible(alice.page, "settings dialog");
  await alice.page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(alice.page.getByRole("button", { name: "Settings", exact: true })).toBeFocused();
  await expect(alice.page.getByRole("heading", { name: `# ${channel}-q3` })).toBeVisible();
  await expect(alice.page.getByTestId("conversation-topic")).toHaveText("Release planning for the third quarter");

  await expect(bob.conversation.sidebarLink(`${channel}-q3`)).toBeVisible();
  await bob.conversation.open(`${channel}-q3`);
  await expect(bob.page.getByTestId("conversation-topic")).toHaveText("Release planning for the third quarter");
  // Bob did not create it: he may leave or add people, not rename it.
  const bobsDialog = await openSettings(bob.page);
  await expect(bobsDialog.getByLabel("Name", { exact: true })).toHaveCount(0);
  await expect(bobsDialog.getByRole("button", { name: `Leave #${channel}-q3` })).toBeVisible();
});

test("an archived channel is read-only and listed apart until its creator unarchives it", async ({ browser }) => {
  test.slow(); // several people, each a browser of their own
  const { alice, bob, channel } = await aliceWithChannel(browser, "done");
  await bob.conversation.open(channel);

  const dialog = await openSettings(alice.page);
  await dialog.getByRole("button", { name: "Archive" }).click();
  await alice.page.keyboard.press("Escape");
  await expect(alice.page.getByText("This conversation is archived", { exact: true })).toBeVisible();
  await expect(alice.conversation.composer(channel)).toHaveCount(0);
  const archived = alice.conversation.sidebar().getByRole("region", { name: "Archived" });
  await expect(archived.getByRole("link", { name: channel })).toBeVisible();
  await expectAccessible(alice.page, "archived channel");

  // Bob sees it archived live, with no way to unarchive it.
  await expect(bob.page.getByText("This conversation is archived", { exact: true })).toBeVisible();
  await expect(bob.page.getByRole("button", { name: "Unarchive" })).toHaveCount(0);

  await alice.page.getByRole("button", { name: "Unarchive" }).click();
  await expect(alice.conversation.composer(channel)).toBeVisible();
  await expect(bob.conversation.composer(channel)).toBeVisible();
  await expect(archived.getByRole("link", { name: channel })).toHaveCount(0);
  await expect(alice.conversation.sidebarLink(channel)).toBeVisible();
});

test("a private channel is by invitation only; a public one is found and joined from the browser", async ({ browser }) => {
  test.slow(); // several people, each a browser of their own
  const { alice, bob, channel: open } = await aliceWithChannel(browser, "open");
  const secret = `secret-${Math.random().toString(36).slice(2, 7)}`;
  await alice.page.getByRole("button", { name: "New channel" }).click();
  await alice.page.getByLabel("Channel name").fill(secret);
  await alice.page.getByLabel("Private").check();
  await alice.page.getByRole("button", { name: "Create" }).click();
  await expect(alice.page.getByRole("heading", { name: `# ${secret}` })).toBeVisible();
  await expect(alice.page.getByText("private", { exact: true })).toBeVisible();

  // Bob leaves the public channel, then finds it again in the browser, where the private one is not.
  await bob.conversation.open(open);
  await (await openSettings(bob.page)).getByRole("button", { name: `Leave #${open}` }).click();
  await expect(bob.page.getByRole("heading", { name: "Channels", level: 1 })).toBeVisible();
  await expect(bob.conversation.sidebarLink(open)).toHaveCount(0);
  await bob.page.getByLabel("Find a channel by name or topic").fill(secret);
  await bob.page.getByRole("button", { name: "Search" }).click();
  await expect(bob.page.getByText(`No channel matches “${secret}”.`)).toBeVisible();
  await bob.page.getByLabel("Find a channel by name or topic").fill(open);
  await bob.page.getByRole("button", { name: "Search" }).click();
  const listing = bob.page.getByRole("listitem", { name: `#${open}` });
  await expect(listing).toContainText("member");
  await expectAccessible(bob.page, "channel browser");
  await listing.getByRole("button", { name: `Join #${open}` }).click();
  await expect(bob.page.getByRole("heading", { name: `# ${open}` })).toBeVisible();
  await expect(bob.conversation.messages().getByText(`${bob.user.name} joined the conversation.`)).toBeVisible();

  // Alice invites Bob to the private channel: it appears in his sidebar at once.
  const dialog = await openSettings(alice.page);
  const bobsOption = await dialog.locator("option", { hasText: bob.user.name }).getAttribute("value");
  await dialog.getByLabel("Add a person").selectOption(bobsOption!);
  await dialog.getByRole("button", { name: "Add", exact: true }).click();
  await expect(dialog.getByRole("list", { name: "Members" })).toContainText(bob.user.name);
  await expect(bob.conversation.sidebar().getByRole("link", { name: secret })).toBeVisible();
});

test("a member removed from a channel loses it at once, and everyone reads who removed whom", async ({ browser }) => {
  test.slow(); // several people, each a browser of their own
  const { alice, bob, channel } = await aliceWithChannel(browser, "crew");
  await bob.conversation.open(channel);

  const dialog = await openSettings(alice.page);
  await dialog.getByRole("button", { name: `Remove ${bob.user.name}` }).click();
  await expect(dialog.getByRole("list", { name: "Members" })).not.toContainText(bob.user.name);
  await alice.page.keyboard.press("Escape");
  await expect(alice.conversation.messages().getByText(`${alice.user.name} removed ${bob.user.name} from the conversation.`)).toBeVisible();

  await expect(bob.page.getByRole("heading", { name: "You no longer have access to this conversation" })).toBeVisible();
  await expect(bob.page.getByText(`${alice.user.name} removed you from #${channel}.`)).toBeVisible();
  await expect(bob.conversation.sidebarLink(channel)).toHaveCount(0);
  await expectAccessible(bob.page, "no longer a member");
});

test("a second chat with the same agent, each named after its first message and renameable", async ({ browser }) => {
  test.slow(); // two chats, each answered by the agent
  const person = await newPerson(browser, "Chatter");
  await person.conversation.sidebar().getByRole("button", { name: "Sage: start a chat" }).click();
  await expect(person.page.getByRole("heading", { name: "Sage", exact: true })).toBeVisible();
  await person.conversation.dmComposer("Sage").fill("Plan the spring release with me");
  await person.conversation.dmComposer("Sage").press("Enter");
  await expect(person.page.getByRole("heading", { name: "Plan the spring release with me" })).toBeVisible();
  await expect(person.conversation.sidebarLink("Plan the spring release with me")).toBeVisible();

  await person.page.getByRole("button", { name: "New chat with Sage" }).click();
  await expect(person.page.getByRole("heading", { name: "Sage", exact: true })).toBeVisible();
  await person.conversation.dmComposer("Sage").fill("Suggest names for a cat");
  await person.conversation.dmComposer("Sage").press("Enter");
  await expect(person.conversation.sidebarLink("Suggest names for a cat")).toBeVisible();
  await expect(person.conversation.sidebarLink("Plan the spring release with me")).toBeVisible();

  const dialog = await openSettings(person.page);
  await dialog.getByLabel("Name", { exact: true }).fill("Cat names");
  await dialog.getByRole("button", { name: "Save" }).click();
  await person.page.keyboard.press("Escape");
  await expect(person.page.getByRole("heading", { name: "Cat names" })).toBeVisible();
  await expect(person.page.getByTestId("chat-agent")).toHaveText("with Sage");
  await expect(person.conversation.sidebarLink("Cat names")).toBeVisible();
});

test("managing a conversation works at phone width, in light and dark, without sideways scrolling", async ({ browser }) => {
  const alice = await newPerson(browser, "Alice");
  const channel = await alice.conversation.createChannel("phone", []);
  await alice.page.setViewportSize({ width: 390, height: 844 });
  const dialog = await openSettings(alice.page);
  await expect(dialog.getByRole("list", { name: "Members" })).toBeVisible();
  await expectAccessible(alice.page, "settings dialog at 390 px");
  await dialog.getByRole("button", { name: "Archive" }).click();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(alice.page.getByText("This conversation is archived", { exact: true })).toBeVisible();
  expect(await widerThanScreen(alice.page)).toEqual([]);
  await expectAccessible(alice.page, "archived channel at 390 px");
  await alice.page.goto(`/channels?q=${channel.slice(0, 5)}`);
  await expect(alice.page.getByRole("heading", { name: "Channels", level: 1 })).toBeVisible();
  expect(await widerThanScreen(alice.page)).toEqual([]);
  await expectAccessible(alice.page, "channel browser at 390 px");
});
