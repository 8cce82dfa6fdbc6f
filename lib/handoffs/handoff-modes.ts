/** The four ways a specialist gets context (seed 000), and how people read them. Safe for the browser. */
export const handoffModes = ["summary", "recent", "full", "fork"] as const;
export type HandoffMode = (typeof handoffModes)[number];

export const handoffModeLabels: Record<HandoffMode, string> = {
  summary: "summary only",
  recent: "recent messages",
  full: "full history",
  fork: "forked context",
};
