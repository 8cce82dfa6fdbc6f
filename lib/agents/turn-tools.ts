import type { OfferedTool, RetrievedProcedure } from "@/lib/context/types";
import type { ToolSpec } from "@/lib/llm/types";
import type { TurnTool } from "@/lib/mcp/tools-for-turn";

/** Chorus's own tools (handoff, capture_procedure) as the assembly counts them. */
export function chorusTools(specs: ToolSpec[]): OfferedTool[] {
  return specs.map((spec) => ({ ...spec, server: "chorus", askFirst: false }));
}

/**
 * The order a turn offers its MCP tools in: those the matched procedure names in its steps (by
 * the name the model calls, or the server's own name for it) first, the rest as they were.
 */
export function procedureToolsFirst(tools: TurnTool[], procedure: RetrievedProcedure | null | undefined): TurnTool[] {
  if (!procedure || tools.length === 0) return tools;
  const steps = procedure.steps.join("\n").toLowerCase();
  const named = (tool: TurnTool) => steps.includes(tool.name.toLowerCase()) || new RegExp(`\\b${escapeRegExp(tool.toolName.toLowerCase())}\\b`).test(steps);
  return [...tools.filter(named), ...tools.filter((tool) => !named(tool))];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
