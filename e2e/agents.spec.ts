import { expect, test } from "./fixtures";
import { newPerson } from "./pages";

test("an agent mentioned in a group streams a reply that both people see, attributed to it", async ({ browser }) => {
  const alice = await newPerson(browser, "Alice");
  const bob = await newPerson(browser, "Bob");
  await alice.conversation.open("general");
  await bob.conversation.open("general");

  await alice.conversation.send("general", "@toby what should we ship first?");

  for (const person of [alice, bob]) {
    const reply = person.conversation.messages().getByRole("listitem", { name: "Messages from Toby" }).last();
    await expect(reply).toContainText('(offline model) You said: "@toby what should we ship first?"');
    await expect(reply.getByText("agent", { exact: true })).toBeVisible();
    await expect(reply.getByText("offline model", { exact: true })).toBeVisible();
  }
});

test("a message without a mention gets no agent reply, the next mention does", async ({ browser }) => {
  const alice = await newPerson(browser, "Alice");
  await alice.conversation.open("random");

  await alice.conversation.send("random", "just chatting with people here");
  await alice.conversation.send("random", "@ada now you, please");

  const adaReplies = alice.conversation.messages().getByRole("listitem", { name: "Messages from Ada" });
  await expect(adaReplies.last()).toContainText('You said: "@ada now you, please"');
  // Agents answer in order, so a reply to the first message would be here by now.
  await expect(alice.conversation.messages().getByText('You said: "just chatting with people here"')).toHaveCount(0);
});

test("an agent chat answers every message", async ({ browser }) => {
  const alice = await newPerson(browser, "Alice");
  await alice.conversation.sidebar().getByRole("button", { name: "Sage: start a chat" }).click();
  await expect(alice.page.getByRole("heading", { name: "Sage", exact: true })).toBeVisible();

  await alice.conversation.dmComposer("Sage").fill("hello there");
  await alice.conversation.dmComposer("Sage").press("Enter");

  await expect(alice.conversation.messages().getByRole("listitem", { name: "Messages from Sage" })).toContainText('You said: "hello there"');
});

test("while an agent answers, the room and the other person's sidebar show it thinking, and Stop keeps what it wrote", async ({ browser }) => {
  const alice = await newPerson(browser, "Alice");
  const bob = await newPerson(browser, "Bob");
  await alice.conversation.open("random");
  await bob.conversation.open("general");

  await alice.conversation.send("random", "@sage please summarise the week");

  await expect(alice.page.getByRole("region", { name: "Conversation random" }).getByText("Sage is thinking…")).toBeVisible();
  const bobsSidebarEntry = bob.conversation.sidebarLink("random").getByTestId("sidebar-activity");
  await expect(bobsSidebarEntry).toHaveText("Sage is thinking…");

  const live = alice.conversation.messages().getByRole("listitem", { name: "Sage is replying" });
  await expect(live).toContainText("(offline model)");
  // By keyboard: the bubble scrolls as it grows, so a pointer aimed at Stop can land on its text.
  await live.getByRole("button", { name: "Stop" }).focus();
  await alice.page.keyboard.press("Enter");

  const reply = alice.conversation.messages().getByRole("listitem", { name: "Messages from Sage" }).last();
  await expect(reply).toContainText("(stopped)");
  await expect(reply).not.toContainText("Set OPENAI_API_KEY to get real answers.");
  await expect(bobsSidebarEntry).toHaveCount(0);
});

