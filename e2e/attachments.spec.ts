import type { Page } from "@playwright/test";
import sharp from "sharp";
import { expectAccessible } from "./axe";
import { expect, test } from "./fixtures";
import { newPerson, widerThanScreen } from "./pages";

/** A real PNG, made here (no binary fixtures in the repository). */
const png = (colour: string) => sharp({ create: { width: 640, height: 400, channels: 3, background: colour } }).png().toBuffer();

/** Files handed to the page as a paste into the composer or a drop onto it (a DataTransfer, as a browser makes). */
async function handOver(page: Page, how: "paste" | "drop", files: { name: string; type: string; bytes: Buffer }[]) {
  const payload = files.map((file) => ({ ...file, bytes: file.bytes.toString("base64") }));
  await page.evaluate(
    ({ how, payload }) => {
      const transfer = new DataTransfer();
      for (const file of payload) transfer.items.add(new File([Uint8Array.from(atob(file.bytes), (char) => char.charCodeAt(0))], file.name, { type: file.type }));
      const composer = document.querySelector("form textarea")!;
      if (how === "paste") composer.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true, cancelable: true }));
      else {
        composer.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }));
        composer.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }));
      }
    },
    { how, payload },
  );
}

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
