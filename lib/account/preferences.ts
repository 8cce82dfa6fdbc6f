import { z } from "zod";

/** How the app looks: as the system does, or always light, or always dark. */
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

/** How times are written: as the browser's locale does, or always 12- or 24-hour. */
export const TIME_FORMATS = ["auto", "12h", "24h"] as const;
export type TimeFormat = (typeof TIME_FORMATS)[number];

export interface Preferences {
  theme: Theme;
  timeFormat: TimeFormat;
}

export const DEFAULT_PREFERENCES: Preferences = { theme: "system", timeFormat: "auto" };

export const preferencesSchema = z.object({
  theme: z.enum(THEMES, { error: "Choose system, light or dark." }),
  timeFormat: z.enum(TIME_FORMATS, { error: "Choose automatic, 12-hour or 24-hour." }),
});

/** A stored value as a preference: anything else (a column edited by hand) is the default. */
export function preferencesOf(row: { theme?: unknown; timeFormat?: unknown }): Preferences {
  return {
    theme: THEMES.find((theme) => theme === row.theme) ?? DEFAULT_PREFERENCES.theme,
    timeFormat: TIME_FORMATS.find((format) => format === row.timeFormat) ?? DEFAULT_PREFERENCES.timeFormat,
  };
}

/** The class the page's root element carries: none follows the system. */
export function themeClass(theme: Theme): string | undefined {
  return theme === "system" ? undefined : theme;
}

/** Intl's hour cycle for a time format: undefined lets the locale decide. */
export function hourCycleOf(format: TimeFormat): "h12" | "h23" | undefined {
  return format === "12h" ? "h12" : format === "24h" ? "h23" : undefined;
}
