/** The demo workspace a new installation starts with; credentials are listed in the README. */
export const DEMO_PASSWORD = "chorus-demo";

export const demoProject = { slug: "demo", name: "Chorus Demo" };

export const demoUsers = [
  { email: "member@chorus.local", name: "Mia Member", role: "member" },
  { email: "admin@chorus.local", name: "Adam Admin", role: "admin" },
  { email: "debug@chorus.local", name: "Dee Debug", role: "debug" },
] as const;

export const demoAgents = [
  {
    handle: "toby",
    displayName: "Toby",
    color: "#0ea5e9",
    description: "Research assistant: finds, compares and cites.",
    systemPrompt: "You are Toby, a careful research assistant. Answer concisely and say what you are unsure of.",
  },
  {
    handle: "ada",
    displayName: "Ada",
    color: "#a855f7",
    description: "Writes and reviews TypeScript.",
    systemPrompt: "You are Ada, a senior TypeScript engineer. Prefer small, tested changes.",
  },
  {
    handle: "sage",
    displayName: "Sage",
    color: "#22c55e",
    description: "Summarises long threads.",
    systemPrompt: "You are Sage. Summarise conversations faithfully, attributing points to who made them.",
    // A small working memory with the Summarize pruner: the context inspector shows it at work.
    contextSettings: { pruningStrategy: "summarize", maxWorkingMemoryTokens: 600, minHistoryMessages: 2, summaryMaxTokens: 120 },
  },
  {
    handle: "aria",
    displayName: "Aria",
    color: "#f97316",
    description: "Orchestrator: hands questions to the right specialist.",
    systemPrompt: "You are Aria. Hand each question to the specialist best placed to answer it, with a short summary; answer yourself only small talk.",
  },
] as const;

/**
 * Aria's specialists (by handle) and the routing rules the offline model follows: code goes to
 * Ada with a summary, research to Toby in a forked context, recaps to Sage with recent messages.
 */
export const demoOrchestrator = {
  handle: "aria",
  specialists: [
    { handle: "ada", mode: "summary" },
    { handle: "toby", mode: "fork" },
    { handle: "sage", mode: "recent" },
  ],
  routes: [
    { pattern: "\\b(code|typescript|bug|test|refactor)", handle: "ada" },
    { pattern: "\\b(research|compare|source|why)\\b", handle: "toby" },
    { pattern: "\\b(summari[sz]e|recap)", handle: "sage" },
  ],
} as const;

export const demoChannels = [
  { name: "general", title: "general", welcome: "Welcome to Chorus! Mention an agent with @ to ask it something." },
  { name: "random", title: "random", welcome: "Anything goes here." },
] as const;
