import { describe, expect, it } from "vitest";
import { apiParamsFor, emptySearch, formFromUrl, urlQueryFor } from "./search-form";

describe("the search form", () => {
  it("round-trips through the URL, leaving out what is not set", () => {
    const form = { ...emptySearch, q: "deploy staging", conversationId: "c-1", to: "2026-11-26" };
    const query = urlQueryFor(form);
    expect(query).toBe("?q=deploy+staging&conversation=c-1&to=2026-11-26");
    const params = new URLSearchParams(query);
    expect(formFromUrl((name) => params.get(name) ?? undefined)).toEqual(form);
    expect(urlQueryFor(emptySearch)).toBe("");
  });

  it("asks the API for this browser's days, the last one included", () => {
    const params = apiParamsFor({ ...emptySearch, q: "deploy", from: "2026-11-01", to: "2026-11-30", authorId: "a-1" });
    expect(params).toEqual({ q: "deploy", authorId: "a-1", after: new Date(2026, 10, 1).toISOString(), before: new Date(2026, 11, 1).toISOString() });
    expect(apiParamsFor({ ...emptySearch, q: "x", to: "2026-12-31" }).before).toBe(new Date(2027, 0, 1).toISOString());
  });
});
