-- A claimed turn's loading reads what is committed after the claim, not when its statement began.
-- As STABLE, chorus_claimed_turn_context read with the snapshot of the claim's statement, taken
-- before chorus_claim_dispatch waited for the provider-limit lock (another node's claim holds it
-- until that node commits); the claim itself, a statement of its own inside a VOLATILE function,
-- sees what committed during the wait. A dispatch posted during the wait was claimed with a
-- loading that lacked its message: the turn failed ("no longer exists") and ran again as
-- attempt 2. VOLATILE, its statement takes a fresh snapshot, after the claim.
ALTER FUNCTION "chorus_claimed_turn_context"("dispatches") VOLATILE;
