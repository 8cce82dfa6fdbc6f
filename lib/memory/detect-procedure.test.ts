import { describe, expect, it } from "vitest";
import { detectProcedure } from "./detect-procedure";

describe("detectProcedure", () => {
  it("captures a reply that walks through three or more numbered steps, named after the question", () => {
    const reply = "Sure:\n1. Open the HR portal.\n2) Choose Leave request.\n3. Pick the dates and submit.\nDone!";
    expect(detectProcedure("@toby how do I request leave?", reply)).toEqual({ name: "how do I request leave", steps: ["Open the HR portal.", "Choose Leave request.", "Pick the dates and submit."] });
  });

  it("ignores replies with fewer steps or numbers out of order", () => {
    expect(detectProcedure("q", "1. one\n2. two")).toBeNull();
    expect(detectProcedure("q", "1. one\n3. three\n4. four")).toBeNull();
    expect(detectProcedure("q", "We shipped 3. Then 4.")).toBeNull();
  });
});
