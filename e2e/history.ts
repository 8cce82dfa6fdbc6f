import { request as playwrightRequest } from "@playwright/test";
import { expect } from "./fixtures";
import { uniqueUser } from "./pages";

/**
 * People who post through the HTTP API with their session cookie, 20 messages each (the rate
 * limit): message n says `history n` unless `contentOf` says otherwise.
 */
export async function fillHistory(baseURL: string, conversationTitle: string, total: number, contentOf: (n: number) => string = (n) => `history ${n}`) {
  const posters = Math.ceil(total / 20);
  let posted = 0;
  let conversationId = "";
  for (let i = 0; i < posters; i++) {
    const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
    const user = uniqueUser(`Poster${i}`);
    expect((await api.post("/api/auth/sign-up/email", { data: user })).status()).toBe(200);
    if (!conversationId) conversationId = (await (await api.get("/api/conversations")).json()).data.find((c: { title: string }) => c.title === conversationTitle).id;
    for (let n = 0; n < 20 && posted < total; n++, posted++) {
      expect((await api.post(`/api/conversations/${conversationId}/messages`, { data: { content: contentOf(posted + 1) } })).status()).toBe(201);
    }
    await api.dispose();
  }
  return conversationId;
}
