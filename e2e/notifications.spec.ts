import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible } from "./axe";
import { newPerson } from "./pages";

/** Records every desktop notification the page shows, and lets the test hide the tab. */
async function watchNotifications(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const recorded: { title: string; body?: string }[] = [];
    Object.assign(window, { shownNotices: recorded, tabHidden: false });
    const Real = window.Notification;
    window.Notification = class extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        recorded.push({ title, body: options?.body });
      }
    };
    const hidden = () => (window as unknown as { tabHidden: boolean }).tabHidden;
    Object.defineProperty(document, "visibilityState", { get: () => (hidden() ? "hidden" : "visible") });
    Object.defineProperty(document, "hidden", { get: hidden });
  });
}
const shown = (page: Page) => page.evaluate(() => (window as unknown as { shownNotices: { title: string; body?: string }[] }).shownNotices);
const hideTab = (page: Page) => page.evaluate(() => Object.assign(window, { tabHidden: true }) && document.dispatchEvent(new Event("visibilitychange")));

test("turned on in Settings, a mention while the tab is hidden shows one desktop notification, and the tab counts it", async ({ browser }) => {
  const ann = await newPerson(browser, "Ann");
  const bo = await newPerson(browser, "Bo");
  await watchNotifications(bo.page);

  // Never asked on page load: Settings says so and asks when told to.
  await bo.page.goto("/settings");
  const section = bo.page.getByRole("region", { name: "Desktop notifications" });
  await expect(section.getByRole("status")).toContainText(/Off in this browser|Blocked in this browser/);
  await bo.context.grantPermissions(["notifications"]);
  await bo.page.reload();
  await expect(section.getByRole("status")).toContainText("On in this browser");
  await expectAccessible(bo.page, "settings with notifications on");

  await bo.conversation.open("general");
  await hideTab(bo.page);
  const handle = bo.user.name.toLowerCase().replace(/\s+/g, ".");
  await ann.conversation.open("general");
  await ann.conversation.send("general", "A message for everyone, telling nobody");
  await ann.conversation.send("general", `@${handle} can you review the release notes?`);

  await expect.poll(() => shown(bo.page)).toEqual([{ title: `${ann.user.name} mentioned you in #general`, body: `@${handle} can you review the release notes?` }]);
  await expect(bo.page).toHaveTitle(/^\(\d+\) #general · Chorus$/);
  const icon = await bo.page.locator('link[rel~="icon"]').first().getAttribute("href");
  expect(decodeURIComponent(icon ?? "")).toMatch(/^data:image\/svg\+xml,<svg /);
});

test("each conversation tells as the person chose: nothing, every message, or muted (said in the sidebar, telling nothing)", async ({ browser }) => {
  const ann = await newPerson(browser, "Ann");
  const bo = await newPerson(browser, "Bo");
  await watchNotifications(bo.page);
  await bo.context.grantPermissions(["notifications"]);
  // A new channel takes in the project's people: Bo too.
  const channel = await ann.conversation.createChannel("quiet", []);
  const handle = bo.user.name.toLowerCase().replace(/\s+/g, ".");

  await bo.page.reload();
  await bo.conversation.open(channel);
  const notify = bo.page.getByRole("combobox", { name: `Notify me in #${channel} of` });
  await expect(notify).toHaveValue("mentions");
  await notify.selectOption("Nothing");
  await hideTab(bo.page);
  await ann.conversation.send(channel, `@${handle} are you there?`);
  await expect(bo.conversation.messages().getByText("are you there?")).toBeVisible();

  await notify.selectOption("Every message");
  await ann.conversation.send(channel, "Lunch is ready");
  await expect.poll(() => shown(bo.page)).toEqual([{ title: `${ann.user.name} in #${channel}`, body: "Lunch is ready" }]);

  await bo.page.getByRole("button", { name: "Mute" }).click();
  await expect(bo.page.getByRole("button", { name: "Muted" })).toHaveAttribute("aria-pressed", "true");
  await ann.conversation.send(channel, "Anyone for coffee?");
  await expect(bo.conversation.messages().getByText("Anyone for coffee?")).toBeVisible();
  await expect(bo.conversation.sidebarLink(channel)).toHaveAccessibleName(new RegExp(`^${channel}, .*muted$`));
  expect(await shown(bo.page)).toHaveLength(1);
  await expectAccessible(bo.page, "a muted channel");
});
