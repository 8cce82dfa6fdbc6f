import { expect, type Browser, type Page } from "@playwright/test";

/** Page objects: tests speak of what a person does, not of selectors. */
export class AuthPage {
  constructor(private readonly page: Page) {}

  async signUp(user: { name: string; email: string; password: string }) {
    await this.page.goto("/sign-up");
    await this.page.getByLabel("Name").fill(user.name);
    await this.page.getByLabel("Email").fill(user.email);
    await this.page.getByLabel("Password").fill(user.password);
    await this.page.getByRole("button", { name: "Create account" }).click();
  }

  async signIn(user: { email: string; password: string }) {
    await this.page.goto("/sign-in");
    await this.page.getByLabel("Email").fill(user.email);
    await this.page.getByLabel("Password").fill(user.password);
    await this.page.getByRole("button", { name: "Sign in" }).click();
  }
}

export class ConversationPage {
  constructor(readonly page: Page) {}

  sidebar() {
    return this.page.getByRole("navigation", { name: "Conversations" });
  }

  /** A sidebar entry by its title; its accessible name also carries the unread and mention counts. */
  sidebarLink(title: string) {
    return this.sidebar().getByRole("link", { name: new RegExp(`^${title}(,|$)`) });
  }

  async open(channel: string) {
    await this.sidebarLink(channel).click();
    await expect(this.page.getByRole("heading", { name: `# ${channel}` })).toBeVisible();
  }

  async startDirectMessage(name: string) {
    await this.sidebar().getByRole("button", { name: "New direct message" }).click();
    await this.sidebar().getByRole("menu", { name: "Start a direct message with" }).getByRole("menuitem", { name: new RegExp(`^${name} @`) }).click();
    await expect(this.page.getByRole("heading", { name })).toBeVisible();
  }

  composer(channel: string) {
    return this.page.getByRole("textbox", { name: `Message #${channel}` });
  }

  dmComposer(name: string) {
    return this.page.getByRole("textbox", { name: `Message ${name}` });
  }

  async send(channel: string, text: string) {
    await this.composer(channel).fill(text);
    await this.composer(channel).press("Enter");
  }

  messages() {
    return this.page.getByRole("list", { name: "Messages" });
  }

  /** A new channel of its own (a unique name from `prefix`) with these agents added; it stays open. */
  async createChannel(prefix: string, agents: string[]) {
    const channel = `${prefix}-${Math.random().toString(36).slice(2, 7)}`;
    await this.page.getByRole("button", { name: "New channel" }).click();
    await this.page.getByLabel("Channel name").fill(channel);
    await this.page.getByRole("button", { name: "Create" }).click();
    await expect(this.page.getByRole("heading", { name: `# ${channel}` })).toBeVisible();
    for (const name of agents) {
      await this.page.getByRole("button", { name: "Add agent" }).click();
      await this.page.getByRole("menuitem", { name: new RegExp(`^${name}`) }).click();
      await expect(this.page.getByTestId("participants-summary")).toContainText(`@${name.toLowerCase()}`);
    }
    return channel;
  }
}

export function uniqueUser(name: string) {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  // Names are unique per test too, so "Messages from Alice …" never matches another test's Alice.
  return { name: `${name} ${id.slice(-4)}`, email: `${name.toLowerCase()}.${id}@example.test`, password: "e2e-password-1" };
}

/** Signs in one of the demo accounts the seed creates (README: admin, debug, member). */
export async function signInDemo(page: Page, email: string) {
  await new AuthPage(page).signIn({ email, password: "chorus-demo" });
  await expect(page.getByRole("navigation", { name: "Conversations" })).toBeVisible();
}

/** A signed-up person in a browser context of their own. */
export async function newPerson(browser: Browser, name: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const user = uniqueUser(name);
  await new AuthPage(page).signUp(user);
  await expect(page.getByRole("navigation", { name: "Conversations" })).toBeVisible();
  return { context, page, user, conversation: new ConversationPage(page) };
}

/**
 * What sticks out past the screen's right edge inside the page's main area, as the start of its
 * HTML; inside a scrolling region too, where a table wider than a phone hides its last columns.
 */
export function widerThanScreen(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("main *")].filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1).map((element) => element.outerHTML.slice(0, 80)),
  );
}
