import { z } from "zod";
import { refinePlainText } from "@/lib/validation/plain-text";
import { countTokens } from "@/lib/llm/token-counter";
import type { AgentProvider } from "@/lib/llm/types";
import { decimal, integer } from "@/lib/validation/numbers";

export const pruningStrategies = ["fifo", "summarize", "sliding_window"] as const;
export const knowledgeRetrievals = ["hybrid", "vector"] as const;
/** The form's provider choice: the offline model, the server's endpoint (OPENAI_*), or `provider:<id>`, a configured one. */
const providerChoice = /^(offline|openai|provider:[A-Za-z0-9-]{1,100})$/;

/**
 * Pruning and memory settings, stored as the agent's `contextSettings` JSON. Defaults
 * follow the memory and pruning design (summaries over the oldest 30 %, at most 300 tokens).
 */
export const contextSettingsSchema = z.object({
  pruningStrategy: z.enum(pruningStrategies, { error: "Choose FIFO, summarize or sliding window." }).default("fifo"),
  minHistoryMessages: integer("Minimum history messages", 0, 200).default(4),
  slidingWindowTurns: integer("Sliding window turns", 1, 200).default(10),
  summarizeFraction: decimal("Summarize fraction", 0.05, 0.9).default(0.3),
  summaryMaxTokens: integer("Summary max tokens", 16, 4_000).default(300),
  maxWorkingMemoryTokens: integer("Working memory budget", 256, 1_000_000).default(8_000),
  semanticTopK: integer("Semantic top K", 0, 50).default(5),
  /** Knowledge found by meaning alone, or by meaning and by its words (lib/memory/knowledge-search.ts); the migration checks the stored value too. */
  knowledgeRetrieval: z.enum(knowledgeRetrievals, { error: "Choose vector or hybrid knowledge retrieval." }).default("hybrid"),
  episodicTopK: integer("Episodic top K", 0, 50).default(5),
  procedureThreshold: decimal("Procedure match threshold", 0, 1).default(0.75),
  // Forms send "true" or "false".
  acceptsImages: z.union([z.boolean(), z.enum(["true", "false"]).transform((value) => value === "true")], { error: "Say whether the model accepts images." }).default(false),
  maxAttachmentTokens: integer("Attachment text limit", 100, 100_000).default(2_000),
  /** Model calls that may ask for tools in one turn; the next is asked for its answer without them. */
  maxToolSteps: integer("Tool steps per turn", 1, 50).default(8),
  /** A tool's result beyond this many tokens is cut (context.md, "Tool steps"). */
  maxToolResultTokens: integer("Tool result limit", 100, 100_000).default(2_000),
});

export type ContextSettings = z.infer<typeof contextSettingsSchema>;

export const defaultContextSettings: ContextSettings = contextSettingsSchema.parse({});

/** Stored settings with defaults filled in; a value that no longer validates falls back to its default. */
export function readContextSettings(stored: unknown): ContextSettings {
  const source = stored && typeof stored === "object" ? (stored as Record<string, unknown>) : {};
  const settings: Record<string, unknown> = { ...defaultContextSettings };
  for (const [key, schema] of Object.entries(contextSettingsSchema.shape)) {
    const parsed = schema.safeParse(source[key]);
    if (parsed.success) settings[key] = parsed.data;
  }
  return settings as ContextSettings;
}

/** Model ids as OpenAI-compatible servers name them: `gpt-4o-mini`, `llama3.1:8b`, `meta-llama/Llama-3-8B`. */
const modelFormat = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,99}$/;
const colourFormat = /^#[0-9a-fA-F]{6}$/;
const handleFormat = /^[a-z0-9](?:[a-z0-9_.-]{0,22}[a-z0-9_])?$/;

/** An @handle as people type it: the @ and capitals are dropped. */
export const handleField = z
  .string()
  .trim()
  .transform((handle) => handle.replace(/^@/, "").toLowerCase())
  .pipe(z.string().regex(handleFormat, "Use 1–24 letters, digits, dots, dashes or underscores, starting with a letter or digit."));

const profileFields = z.object({
  handle: handleField,
  displayName: z.string().trim().min(1, "Give the agent a name.").max(60, "Keep the name under 60 characters.").superRefine(refinePlainText("Names")),
  color: z.string().trim().regex(colourFormat, "Pick a colour as #rrggbb."),
  description: z.string().trim().max(280, "Keep the description under 280 characters.").superRefine(refinePlainText("Descriptions")).default(""),
  systemPrompt: z
    .string()
    .trim()
    .min(1, "The system prompt cannot be empty.")
    .max(20_000, "Keep the system prompt under 20,000 characters.")
    .superRefine(refinePlainText("System prompts")),
  provider: z.string({ error: "Choose who answers: the offline model, the server's endpoint or a provider." }).regex(providerChoice, "Choose who answers: the offline model, the server's endpoint or a provider."),
  model: z.string().trim().regex(modelFormat, "Unknown model format: use a model id such as gpt-4o-mini or llama3.1:8b."),
  temperature: decimal("Temperature", 0, 2),
  maxOutputTokens: integer("Max output tokens", 1, 32_768),
  historyWindow: integer("History window", 1, 500),
});

/** A form field left empty means "none": no cap, no price. */
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === "" || value === undefined ? null : value), schema.nullable());

/** What an agent may spend and what its tokens cost (lib/usage). */
const usageFields = z.object({
  monthlyTokenCap: optional(
    z.coerce
      .number({ error: "Monthly token cap must be a number of tokens, or empty for no cap." })
      .int("Monthly token cap must be a whole number of tokens.")
      .positive("Monthly token cap must be more than 0 tokens: leave it empty for no cap.")
      .max(2_000_000_000, "Monthly token cap must be at most 2,000,000,000 tokens."),
  ),
  inputUsdPerMillion: optional(decimal("Input price", 0, 10_000)),
  outputUsdPerMillion: optional(decimal("Output price", 0, 10_000)),
});

/**
 * Everything an admin edits about an agent, as one flat form. The system prompt must fit in the
 * working-memory budget with room to spare, or no history could ever be sent.
 */
export const agentConfigSchema = profileFields.extend(usageFields.shape).extend(contextSettingsSchema.shape).superRefine((config, context) => {
  const promptTokens = countTokens(config.systemPrompt, config.model);
  if (promptTokens >= config.maxWorkingMemoryTokens) {
    context.addIssue({
      code: "custom",
      path: ["maxWorkingMemoryTokens"],
      message: `The budget (${config.maxWorkingMemoryTokens} tokens) must be larger than the system prompt (${promptTokens} tokens).`,
    });
  }
});

export type AgentConfig = z.infer<typeof agentConfigSchema>;

/** The columns and the contextSettings JSON a validated config is stored as. */
export function toAgentColumns(config: AgentConfig) {
  const { handle, displayName, color, description, systemPrompt, provider, model, temperature, maxOutputTokens, historyWindow, monthlyTokenCap, inputUsdPerMillion, outputUsdPerMillion, ...context } = config;
  const contextSettings: ContextSettings = contextSettingsSchema.parse(context);
  return { handle, displayName, color, description, systemPrompt, ...providerColumns(provider), model, temperature, maxOutputTokens, historyWindow, monthlyTokenCap, inputUsdPerMillion, outputUsdPerMillion, contextSettings };
}

/** The form's provider choice as the agent's columns. */
export function providerColumns(choice: string): { provider: AgentProvider; providerId: string | null } {
  if (choice.startsWith("provider:")) return { provider: "custom", providerId: choice.slice("provider:".length) };
  return { provider: choice === "openai" ? "openai" : "offline", providerId: null };
}

/** An agent's columns as the form's provider choice. */
export function providerChoiceOf(agent: { provider: AgentProvider; providerId: string | null }): string {
  return agent.provider === "custom" && agent.providerId ? `provider:${agent.providerId}` : agent.provider === "custom" ? "offline" : agent.provider;
}
