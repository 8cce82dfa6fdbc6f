import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

// Today's axe-core rules (4.14: label-in-name among them), not the older copy @axe-core/playwright bundles.
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export const colourSchemes = ["light", "dark"] as const;

/**
 * Zero axe-core violations on what the page shows now, in light and in dark. Each failure names
 * the rule, how many nodes break it and where, so the report says what to fix.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  for (const colorScheme of colourSchemes) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page, axeSource }).analyze();
    const found = violations.map((violation) => `${violation.id} ×${violation.nodes.length}: ${violation.nodes.slice(0, 4).map((node) => node.target.join(" ")).join(" | ")}`);
    expect(found, `${what} (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: null });
}
