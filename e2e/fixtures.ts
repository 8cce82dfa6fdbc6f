import { test as base } from "@playwright/test";

export { expect } from "@playwright/test";

/**
 * Playwright's test, closing every browser context a test opened (people made by newPerson,
 * admins' tabs) once it ends, passed or failed: a context left open keeps its pages and sockets
 * alive for the rest of the run, and a dozen of them slow every later test on two cores.
 */
export const test = base.extend<{ closeOpenedContexts: void }>({
  closeOpenedContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      await Promise.all(browser.contexts().filter((context) => !before.has(context)).map((context) => context.close().catch(() => undefined)));
    },
    { auto: true },
  ],
});
