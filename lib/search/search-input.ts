import { z } from "zod";
import { AppError } from "@/lib/errors/app-error";
import { refinePlainText } from "@/lib/validation/plain-text";

export const MAX_SEARCH_CHARS = 500;

// A form or a URL sends an unused filter as an empty value: it means "no filter".
const blankAsMissing = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

// Ids are only looked up (an unknown one finds nothing), but never sent to the database raw.
const idFilter = (name: string) =>
  z.preprocess(
    blankAsMissing,
    z
      .string()
      .trim()
      .regex(/^[\w-]{1,100}$/, `${name} must be an id (letters, digits, "-" and "_"), as /api/conversations and /api/directory give them.`)
      .optional(),
  );

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** A day (`2026-11-26`, midnight UTC) or an ISO 8601 time with its offset; a day that does not exist is refused. */
const dateFilter = (name: string) =>
  z.preprocess(
    blankAsMissing,
    z
      .string()
      .trim()
      .transform((text, ctx) => {
        const date = new Date(text);
        // new Date("2026-02-30") rolls over to March 2: a day must read back as itself.
        const exists = DATE_ONLY.test(text) ? !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text) : DATE_TIME.test(text) && !Number.isNaN(date.getTime());
        if (!exists) {
          ctx.addIssue({ code: "custom", message: `${name} must be a date like 2026-11-26 or a time like 2026-11-26T09:30:00Z; "${text.slice(0, 40)}" is not one.` });
          return z.NEVER;
        }
        return date;
      })
      .optional(),
  );

/**
 * What a search asks, as `GET /api/search` and the search screen send it: `q` (the words, in
 * the web search syntax: "a phrase", -without, or), and optional filters: one conversation, one
 * author (a person's or an agent's id), `after` (from this time on) and `before` (up to, not
 * including, this time); `offset` pages through the results.
 */
export const searchInputSchema = z
  .object({
    q: z
      .string({ error: "Type something to search for." })
      .refine((text) => text.trim().length > 0, "Type something to search for.")
      .superRefine((text, ctx) => {
        if (text.length > MAX_SEARCH_CHARS) ctx.addIssue({ code: "custom", message: `A search can be at most ${MAX_SEARCH_CHARS} characters; this one has ${text.length.toLocaleString("en")}. Shorten it.` });
      })
      .superRefine(refinePlainText("Searches")),
    conversationId: idFilter("conversationId"),
    authorId: idFilter("authorId"),
    after: dateFilter("after"),
    before: dateFilter("before"),
    offset: z.preprocess(blankAsMissing, z.coerce.number({ error: "offset must be a whole number, 0 or more." }).int("offset must be a whole number, 0 or more.").min(0, "offset must be a whole number, 0 or more.").default(0)),
  })
  .refine(({ after, before }) => !after || !before || after < before, { message: "after must be earlier than before: with these dates no message can match. Swap them." })
  .transform(({ q, ...filters }) => ({ query: q.trim(), ...filters }));

export type SearchInput = z.infer<typeof searchInputSchema>;

/** The search a request asks for, or a 400 saying what to change. */
export function parseSearchInput(params: Record<string, string | undefined>): SearchInput {
  const parsed = searchInputSchema.safeParse(params);
  if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]?.message ?? "Invalid search.");
  return parsed.data;
}
