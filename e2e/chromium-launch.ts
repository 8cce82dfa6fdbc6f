import { existsSync } from "node:fs";
import type { LaunchOptions } from "@playwright/test";

/**
 * How the e2e suite and the browser bench start Chromium: Debian's when installed (this project's
 * machines cannot download browsers), Playwright's own otherwise (e.g. on a laptop after
 * `npx playwright install chromium`).
 *
 * Chromium 156 (headless too) starts a renderer of its own for every new tab, for the omnibox's
 * WebUI popups (its AI mode one among them), which nobody sees here: about 300-500 ms of
 * main-thread time a tab, on a 2-core machine taken from the page under test. Turning the popups'
 * three features off removes that renderer's work.
 */
export function chromiumLaunchOptions(): LaunchOptions {
  const systemChromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  return {
    ...(existsSync(systemChromium) ? { executablePath: systemChromium } : {}),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup"],
  };
}
