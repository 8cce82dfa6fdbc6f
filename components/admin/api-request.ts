import type { ActionResult } from "@/lib/actions/safe-action";
import { UNREACHABLE } from "@/components/ui/unreachable";

/**
 * Calls Chorus's JSON API from the browser (a body as JSON, or a FormData as the upload it is).
 * Its answer is `{ data }` or `{ error }`,
 * the shape a server action returns, so forms handle both alike; a network failure or an answer
 * that is not ours becomes an `{ error }` too, never a throw.
 */
export async function requestJson<T>(url: string, method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE", body?: unknown): Promise<ActionResult<T>> {
  const init: RequestInit =
    body === undefined ? { method } : body instanceof FormData ? { method, body } : { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(url, init).catch(() => null);
  const answer: unknown = response ? await response.json().catch(() => null) : null;
  return answer !== null && typeof answer === "object" && ("data" in answer || "error" in answer) ? (answer as ActionResult<T>) : UNREACHABLE;
}
