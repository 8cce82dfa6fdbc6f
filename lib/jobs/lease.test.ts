import { describe, expect, it } from "vitest";
import { HeldLease, LEASE_LOST, NODE_STOPPING, onLeaseEnd } from "./lease";

const lease = () => new HeldLease("panel", "p1", 3, Date.now() + 60_000);
/** Lets queued callbacks run. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("onLeaseEnd", () => {
  it("stops the work when the lease is lost later, once", async () => {
    const held = lease();
    let calls = 0;
    onLeaseEnd(held, () => (calls += 1));
    held.lose("taken over");
    held.stop();
    await tick();
    expect(calls).toBe(1);
    expect(held.signal.reason).toBe(LEASE_LOST);
  });

  it("stops work that starts after the lease was already lost (a frozen node waking up), which a plain listener never would", async () => {
    const held = lease();
    held.lose("its time ran out before it was renewed");
    let stopped = false;
    onLeaseEnd(held, () => (stopped = true));
    await tick();
    expect(stopped).toBe(true);
  });

  it("does not stop work that stopped listening before the node stopped", async () => {
    const held = lease();
    let stopped = false;
    const stopListening = onLeaseEnd(held, () => (stopped = true));
    stopListening();
    held.stop();
    await tick();
    expect(stopped).toBe(false);
    expect(held.signal.reason).toBe(NODE_STOPPING);
  });
});
