import type { ErrorPayload } from "@/lib/errors/app-error";

/** What a form shows when Chorus could not be reached (a network failure, an answer not ours): an error like any other. */
export const UNREACHABLE: { error: ErrorPayload } = { error: { code: "unavailable", message: "Could not reach Chorus. Try again." } };
