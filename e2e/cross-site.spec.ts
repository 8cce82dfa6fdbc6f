import { randomUUID } from "node:crypto";
import { request as playwrightRequest, type Request } from "@playwright/test";
import { expect, test } from "./fixtures";
import { AuthPage, newPerson, uniqueUser } from "./pages";

/** A server action request the page really sent, to send again with other headers. */
function replayable(sent: Request) {
  const headers = sent.headers();
  return {
    url: sent.url(),
    headers: { "next-action": headers["next-action"]!, "content-type": headers["content-type"]!, accept: headers.accept ?? "text/x-component" },
    body: sent.postDataBuffer()!,
  };
}

const isAction = (request: Request) => request.method() === "POST" && request.headers()["next-action"] !== undefined;

test("the post-message action sent again with the session cookie but no Origin, or from another site, is refused with 403 and posts nothing", async ({ browser, baseURL }) => {
  const alice = await newPerson(browser, "Alice");
  await alice.conversation.open("general");
  const [sent] = await Promise.all([alice.page.waitForRequest(isAction), alice.conversation.send("general", "the real one")]);
  await expect(alice.conversation.messages().getByText("the real one")).toBeVisible();
  const action = replayable(sent);
  const [input] = JSON.parse(action.body.toString()) as [{ conversationId: string; content: string; clientId: string }];
  const withContent = (content: string) => JSON.stringify([{ ...input, content, clientId: randomUUID() }]);

  // The browser context's own request client: it sends the session cookie, and no Origin unless told.
  const api = alice.context.request;
  for (const [content, extra] of [["forged, no origin", {}], ["forged, other site", { origin: "https://evil.example" }]] as const) {
    const response = await api.post(action.url, { headers: { ...action.headers, ...extra }, data: withContent(content) });
    expect(response.status()).toBe(403);
    expect((await response.json()).error).toMatchObject({ code: "forbidden" });
  }
  // The same request from the page's origin goes through: the refusals were for the missing proof alone.
  expect((await api.post(action.url, { headers: { ...action.headers, origin: baseURL! }, data: withContent("replayed from the page") })).status()).toBe(200);

  const history = await (await api.get(`/api/conversations/${input.conversationId}/messages`)).json();
  const contents = (history.data.messages as { content: string }[]).map((message) => message.content);
  expect(contents).toContain("replayed from the page");
  expect(contents).not.toContain("forged, no origin");
  expect(contents).not.toContain("forged, other site");
  await alice.context.close();
});

test("the sign-in form's action sent with no Origin sets no session cookie (login CSRF)", async ({ browser, baseURL }) => {
  const user = uniqueUser("Dana");
  const context = await browser.newContext();
  const page = await context.newPage();
  await new AuthPage(page).signUp(user);
  await expect(page.getByRole("navigation", { name: "Conversations" })).toBeVisible();
  await context.clearCookies();

  const [sent] = await Promise.all([page.waitForRequest(isAction), new AuthPage(page).signIn(user)]);
  await expect(page.getByRole("navigation", { name: "Conversations" })).toBeVisible();
  const action = replayable(sent);

  // An attacker's page, or a script, without cookies of its own.
  const stranger = await playwrightRequest.newContext({ baseURL });
  const refused = await stranger.post(action.url, { headers: action.headers, data: action.body });
  expect(refused.status()).toBe(403);
  expect(refused.headers()["set-cookie"]).toBeUndefined();
  const accepted = await stranger.post(action.url, { headers: { ...action.headers, origin: baseURL! }, data: action.body });
  expect(accepted.headersArray().some((header) => header.name.toLowerCase() === "set-cookie" && header.value.includes("session_token"))).toBe(true);
  await stranger.dispose();
  await context.close();
});
