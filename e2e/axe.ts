import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export const colourSchemes = ["light", "dark"] as const;

/**
 * Zero axe-core violations on what the page shows now, in light and in dark. Each failure names
 * the rule, how many nodes break it and where, so the report says what to fix.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  for (const colorScheme of colourSchemes) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await new AxeBuilder({ page }).analyze();
    const found = violations.map((violation) => `${violation.id} ×${violation.nodes.length}: ${violation.nodes.slice(0, 4).map((node) => node.target.join(" ")).join(" | ")}`);
    expect(found, `${what} (${colorScheme})`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: null });
}
