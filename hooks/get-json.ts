/** The `data` of a JSON answer from our API, or an Error carrying its `{ error }` message (`failure` when there is none, e.g. offline). */
export async function getJson<T>(url: string, failure: string): Promise<T> {
  const response = await fetch(url);
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(body?.error?.message ?? failure);
  return body.data;
}
