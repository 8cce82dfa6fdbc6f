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
  {
    handle: "scout",
    displayName: "Scout",
    color: "#14b8a6",
    description: "Project-notes assistant: searches and adds the team's notes, and tells the time.",
    systemPrompt: "You are Scout, the project's notes assistant. Look things up in the notes before answering, save notes when asked, and say which note an answer comes from.",
  },
] as const;

/**
 * Chorus's own MCP server (project notes and a clock). Stdio servers start in the app's working
 * directory (the repository root), so the script's relative path holds on any clone; `node` is
 * found on the PATH the app was started with.
 */
export const demoNotesServer = { name: "notes", command: "node", script: "scripts/demo-mcp-server.mjs", notesFile: "demo-notes.json" } as const;

/** Scout's tools on the notes server: reading is free, writing a note waits for someone's approval. */
export const demoToolAgent = {
  handle: "scout",
  tools: [
    { toolName: "search_notes", askFirst: false },
    { toolName: "add_note", askFirst: true },
    { toolName: "current_time", askFirst: false },
  ],
} as const;

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
