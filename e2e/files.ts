import type { Page } from "@playwright/test";
import sharp from "sharp";

/** A real PNG, made here (no binary fixtures in the repository). */
export const png = (colour: string) => sharp({ create: { width: 640, height: 400, channels: 3, background: colour } }).png().toBuffer();

/** Files handed to the page as a paste into the composer or a drop onto it (a DataTransfer, as a browser makes). */
export async function handOver(page: Page, how: "paste" | "drop", files: { name: string; type: string; bytes: Buffer }[]) {
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
