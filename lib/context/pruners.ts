/**
 * The pruners of seed 003, over plain arrays (oldest first). They say what to keep; the caller
 * records why the rest went.
 */

/**
 * SlidingWindow: walking oldest to newest, each user message opens a pair that also takes the
 * assistant message right after it; an assistant message with no user before it is a pair of
 * its own. Keeps the last `turns` pairs. Returns, for each message, whether it is kept.
 */
export function slidingWindowKeeps(roles: readonly ("user" | "assistant")[], turns: number): boolean[] {
  const pairOf: number[] = [];
  let pair = -1;
  let awaitingReply = false;
  for (const role of roles) {
    if (role === "user" || !awaitingReply) pair += 1;
    awaitingReply = role === "user";
    pairOf.push(pair);
  }
  const firstKept = pair + 1 - turns;
  return pairOf.map((id) => id >= firstKept);
}

/**
 * FIFO, exactly the seed's loop: while over budget and more than `minMessages` remain, drop the
 * oldest, and if the new oldest is an assistant message drop it too (so it can end one below the
 * minimum). `costs` are each message's share of the prompt; `excess` is how far over budget the
 * whole prompt is. Returns how many messages it drops from the front.
 */
export function fifoDrops(roles: readonly ("user" | "assistant")[], costs: readonly number[], excess: number, minMessages: number): number {
  let dropped = 0;
  let freed = 0;
  while (freed < excess && roles.length - dropped > minMessages) {
    freed += costs[dropped]!;
    dropped += 1;
    if (dropped < roles.length && roles[dropped] === "assistant") {
      freed += costs[dropped]!;
      dropped += 1;
    }
  }
  return dropped;
}
