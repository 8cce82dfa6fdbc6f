import { describe, expect, it } from "vitest";
import { isClientAbortNoise } from "./quiet-client-aborts";

describe("isClientAbortNoise", () => {
  it("recognises React's cancellation when the browser went away, bare or as a cause", () => {
    expect(isClientAbortNoise([new Error("The destination stream errored while writing data.")])).toBe(true);
    expect(isClientAbortNoise(["⨯", new Error("render aborted", { cause: new Error("The destination stream errored while writing data.") })])).toBe(true);
  });

  it("lets every other error through", () => {
    expect(isClientAbortNoise([new Error("relation \"messages\" does not exist")])).toBe(false);
    expect(isClientAbortNoise(["The destination stream errored"])).toBe(false);
  });
});
