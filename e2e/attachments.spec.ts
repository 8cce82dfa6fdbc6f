import { makePdfPages, textOperators } from "../test/support/make-pdf";
import { expectAccessible } from "./axe";
import { handOver, png } from "./files";
import { expect, test } from "./fixtures";
import { ConversationPage, newPerson, signInDemo, widerThanScreen } from "./pages";

test("paste an image and drop a text file into a channel: the other person sees a thumbnail to enlarge and a file card", async ({ browser }) => {
  const ann = await newPerson(browser, "Ann");
  const bob = await newPerson(browser, "Bob");
  const channel = await ann.conversation.createChannel("files", []);
  await bob.conversation.open(channel);

  await handOver(ann.page, "paste", [{ name: "dashboard.png", type: "image/png", bytes: await png("#2255aa") }]);
  await handOver(ann.page, "drop", [{ name: "release-notes.md", type: "text/markdown", bytes: Buffer.from("# Release\n\n- faster search\n") }]);
  const toSend = ann.page.getByRole("list", { name: "Files to send" });
  await expect(toSend.getByRole("listitem")).toHaveCount(2);
  await expect(toSend.getByRole("progressbar")).toHaveCount(0);
  await ann.conversation.send(channel, "this morning's numbers");
  await expect(toSend).toHaveCount(0);

  const attached = bob.conversation.messages().getByRole("list", { name: "Attached files" });
  await expect(attached.getByRole("img", { name: "dashboard.png" })).toBeVisible();
  await expect(attached.getByRole("link", { name: "release-notes.md" })).toBeVisible();
  await expect(attached).toContainText("text/markdown");

  // Enlarged by keyboard, closed with Escape.
  await attached.getByRole("button", { name: "Enlarge dashboard.png" }).focus();
  await bob.page.keyboard.press("Enter");
  const dialog = bob.page.getByRole("dialog", { name: "dashboard.png" });
  await expect(dialog.getByRole("img", { name: "dashboard.png" })).toBeVisible();
  await expectAccessible(bob.page, "an enlarged image");
  await bob.page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await bob.page.setViewportSize({ width: 390, height: 844 });
  expect(await widerThanScreen(bob.page)).toEqual([]);
  await expectAccessible(bob.page, "a message with files at 390 px");
});

test("the attach button uploads with the file's own type; a refused file says why and is not sent", async ({ browser }) => {
  const ann = await newPerson(browser, "Ann");
  const channel = await ann.conversation.createChannel("refused", []);
  const picker = ann.page.locator('form input[type="file"]');
  await picker.setInputFiles([{ name: "empty.txt", mimeType: "text/plain", buffer: Buffer.alloc(0) }]);
  const toSend = ann.page.getByRole("list", { name: "Files to send" });
  await expect(toSend.getByRole("alert")).toHaveText("empty.txt is empty (0 bytes): there is nothing to attach.");
  await expectAccessible(ann.page, "a refused upload in the composer");
  await toSend.getByRole("button", { name: "Remove empty.txt" }).click();
  await expect(toSend).toHaveCount(0);

  await picker.setInputFiles([{ name: "chart.png", mimeType: "image/png", buffer: await png("#aa5522") }]);
  await expect(toSend.getByRole("listitem")).toHaveCount(1);
  await expect(toSend.getByRole("progressbar")).toHaveCount(0);
  // Files alone can be sent: the text may be empty.
  await ann.conversation.composer(channel).press("Enter");
  await expect(ann.conversation.messages().getByRole("img", { name: "chart.png" })).toBeVisible();
});

test("paste an image and drag a PDF into a channel: the agent answers having read them, and the inspector lists both", async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInDemo(page, "debug@chorus.local");
  const conversation = new ConversationPage(page);
  const channel = await conversation.createChannel("agent-files", ["Toby"]);

  await handOver(page, "paste", [{ name: "error-screen.png", type: "image/png", bytes: await png("#aa2222") }]);
  await handOver(page, "drop", [{ name: "incident.pdf", type: "application/pdf", bytes: Buffer.from(makePdfPages([{ operators: textOperators(["The outage began at 09:14."]) }])) }]);
  const toSend = page.getByRole("list", { name: "Files to send" });
  await expect(toSend.getByRole("listitem")).toHaveCount(2);
  await expect(toSend.getByRole("progressbar")).toHaveCount(0);
  await conversation.send(channel, "@toby what happened?");

  // Toby's model (the offline one) does not take images: it read the PDF and was told the image's name.
  const reply = conversation.messages().getByRole("listitem", { name: "Messages from Toby" }).last();
  await expect(reply).toContainText("with 2 attachments: error-screen.png (not read: not_an_image_model), incident.pdf (read as text)", { timeout: 30_000 });

  await reply.getByRole("button", { name: "Inspect context of this reply" }).click();
  const dialog = page.getByRole("dialog", { name: "What the agent saw" });
  const files = dialog.getByRole("list", { name: "Current message items" }).getByRole("list", { name: "Attachments" });
  await expect(files.getByRole("listitem")).toHaveCount(2);
  await expect(files.getByRole("listitem").first()).toContainText("error-screen.png");
  await expect(files.getByRole("listitem").first()).toContainText("not read: the model does not accept images");
  await expect(files.getByRole("listitem").last()).toContainText("incident.pdf");
  await expect(files.getByRole("listitem").last()).toContainText("read as text");
  await expectAccessible(page, "the inspector listing a message's files");
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await widerThanScreen(page)).toEqual([]);
  await expectAccessible(page, "the inspector's files at 390 px");
});
