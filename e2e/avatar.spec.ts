import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { png } from "./files";
import { newPerson, widerThanScreen } from "./pages";

const avatarSection = (page: Page) => page.getByRole("region", { name: "Avatar" });
const pictureField = (page: Page) => avatarSection(page).getByLabel("Upload a picture");
/** The avatar picture inside a region, loaded (a broken image has no natural width). */
const loadedPicture = async (where: Locator) => {
  const picture = where.locator('img[src^="/api/avatars/"]').first();
  await expect(picture).toBeVisible();
  await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(256);
  return picture;
};

test("a person uploads a picture and sees it in settings, in their menu and beside their messages, for others too; a non-image is refused in words", async ({ browser }) => {
  const ann = await newPerson(browser, "Ann");
  const bob = await newPerson(browser, "Bob");
  await ann.page.goto("/settings");

  // A text file named as a PNG: refused, said under the field, nothing shown.
  await pictureField(ann.page).setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("Only words in here.\n") });
  await expect(pictureField(ann.page)).toHaveAccessibleDescription(/^notes\.png is not a picture\. Choose a PNG, JPEG, WebP or GIF picture\./);
  await expect(pictureField(ann.page)).toHaveAttribute("aria-invalid", "true");
  await expect(avatarSection(ann.page).locator("img")).toHaveCount(0);

  await pictureField(ann.page).setInputFiles({ name: "me.png", mimeType: "image/png", buffer: await png("#2266cc") });
  await expect(avatarSection(ann.page).getByRole("status")).toHaveText("Picture saved.");
  await expect(pictureField(ann.page)).not.toHaveAttribute("aria-invalid");
  await loadedPicture(avatarSection(ann.page));
  await loadedPicture(ann.page.getByRole("button", { name: new RegExp(ann.user.name) }));

  const words = `Here I am ${Date.now().toString(36)}`;
  await bob.conversation.open("general");
  await ann.conversation.open("general");
  await ann.conversation.send("general", words);
  const annSays = (page: Page) => page.getByRole("listitem", { name: `Messages from ${ann.user.name}` }).filter({ hasText: words });
  // The sender's own copy, and the copy Bob's open conversation hears live.
  await loadedPicture(annSays(ann.page));
  await loadedPicture(annSays(bob.page));

  // Removing it goes back to initials, everywhere the page shows.
  await ann.page.goto("/settings");
  await avatarSection(ann.page).getByRole("button", { name: "Remove picture" }).click();
  await expect(avatarSection(ann.page).getByRole("status")).toHaveText("Picture removed: your initials show instead.");
  await expect(avatarSection(ann.page).locator("img")).toHaveCount(0);
  await expect(ann.page.getByRole("button", { name: new RegExp(ann.user.name) }).locator("img")).toHaveCount(0);
});

test("the colour behind one's initials is chosen by keyboard and shown beside one's name", async ({ browser }) => {
  const cy = await newPerson(browser, "Cy");
  await cy.page.goto("/settings");
  const automatic = avatarSection(cy.page).getByRole("radio", { name: "Automatic" });
  await expect(automatic).toBeChecked();
  await automatic.focus();
  await cy.page.keyboard.press("ArrowRight");
  await cy.page.keyboard.press("ArrowRight");
  await expect(avatarSection(cy.page).getByRole("radio", { name: "Orange" })).toBeChecked();
  await avatarSection(cy.page).getByRole("button", { name: "Save colour" }).press("Enter");
  await expect(avatarSection(cy.page).getByRole("status")).toHaveText("Colour saved.");

  await cy.page.reload();
  await expect(avatarSection(cy.page).getByRole("radio", { name: "Orange" })).toBeChecked();
  // The menu's circle: Orange (#c2410c), its initials in white.
  const circle = cy.page.getByRole("button", { name: new RegExp(cy.user.name) }).locator("span[aria-hidden]").first();
  await expect(circle).toHaveCSS("background-color", "rgb(194, 65, 12)");
  await expect(circle).toHaveCSS("color", "rgb(255, 255, 255)");
});

test("the avatar settings fit a phone and are accessible in light and dark, with a picture and with a refusal", async ({ browser }) => {
  const di = await newPerson(browser, "Di");
  await di.page.setViewportSize({ width: 390, height: 844 });
  await di.page.goto("/settings");
  await expect(pictureField(di.page)).toBeVisible();
  expect(await widerThanScreen(di.page)).toEqual([]);
  await expectAccessible(di.page, "avatar settings at 390 px");

  await pictureField(di.page).setInputFiles({ name: "me.png", mimeType: "image/png", buffer: await png("#cc6622") });
  await loadedPicture(avatarSection(di.page));
  expect(await widerThanScreen(di.page)).toEqual([]);
  await expectAccessible(di.page, "avatar settings with a picture at 390 px");

  await pictureField(di.page).setInputFiles({ name: "setup.exe", mimeType: "application/octet-stream", buffer: Buffer.concat([Buffer.from("MZ"), Buffer.alloc(2_048, 1)]) });
  await expect(pictureField(di.page)).toHaveAccessibleDescription(/^setup\.exe is not a picture/);
  await expectAccessible(di.page, "avatar settings with a refusal at 390 px");
});
