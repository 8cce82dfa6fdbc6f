/**
 * What the search screen holds, as its form and its URL say it: the words, a conversation, an
 * author, and a range of days (`yyyy-mm-dd`, both included). Empty means "not set".
 */
export interface SearchForm {
  q: string;
  conversationId: string;
  authorId: string;
  from: string;
  to: string;
}

export const emptySearch: SearchForm = { q: "", conversationId: "", authorId: "", from: "", to: "" };

// The URL's names for the form's fields (shorter, and a person may read or share them).
const urlNames: Record<keyof SearchForm, string> = { q: "q", conversationId: "conversation", authorId: "author", from: "from", to: "to" };

/** The form a URL describes (`?q=deploy&from=2026-11-01`); what it does not say is empty. */
export function formFromUrl(read: (name: string) => string | undefined): SearchForm {
  const form = { ...emptySearch };
  for (const field of Object.keys(urlNames) as (keyof SearchForm)[]) form[field] = read(urlNames[field]) ?? "";
  return form;
}

/** The URL's query for a form, empty fields left out: `?q=deploy` (or "" when nothing is set). */
export function urlQueryFor(form: SearchForm): string {
  const params = new URLSearchParams();
  for (const field of Object.keys(urlNames) as (keyof SearchForm)[]) if (form[field]) params.set(urlNames[field], form[field]);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** A day of this browser's calendar as the moment it starts, `days` later. */
function startOfDay(day: string, days = 0): string {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(year!, month! - 1, date! + days).toISOString();
}

/**
 * What `GET /api/search` is asked for a form: the days as this browser's midnights, the last
 * day included (before the next one starts).
 */
export function apiParamsFor(form: SearchForm): Record<string, string> {
  return {
    q: form.q,
    ...(form.conversationId ? { conversationId: form.conversationId } : {}),
    ...(form.authorId ? { authorId: form.authorId } : {}),
    ...(form.from ? { after: startOfDay(form.from) } : {}),
    ...(form.to ? { before: startOfDay(form.to, 1) } : {}),
  };
}
