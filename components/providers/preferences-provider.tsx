"use client";

import { createContext, useContext, useMemo, type ReactNode } from "react";
import { DEFAULT_PREFERENCES, hourCycleOf, type Preferences } from "@/lib/account/preferences";

/** A day and a time, as message histories, search results and admin pages show them. */
export const DATE_AND_TIME: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };
/** A time of day, as beside a message. */
export const TIME_OF_DAY: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit" };

const PreferencesContext = createContext<Preferences>(DEFAULT_PREFERENCES);

/** The signed-in person's preferences, for the components that format what they show. */
export function PreferencesProvider({ preferences, children }: { preferences: Preferences; children: ReactNode }) {
  return <PreferencesContext.Provider value={preferences}>{children}</PreferencesContext.Provider>;
}

export function usePreferences(): Preferences {
  return useContext(PreferencesContext);
}

/**
 * A date formatter that writes hours as the person chose (12- or 24-hour, or as their locale
 * does). `options` should be a constant: a formatter is made again whenever it changes.
 */
export function useDateFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const { timeFormat } = usePreferences();
  return useMemo(() => new Intl.DateTimeFormat(undefined, { ...options, hourCycle: hourCycleOf(timeFormat) }), [options, timeFormat]);
}
