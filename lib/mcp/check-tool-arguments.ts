import { z } from "zod";
import { notRunResult } from "@/lib/context/tool-results";
import { log } from "@/lib/log/logger";

export type CheckedArguments = { ok: true; args: Record<string, unknown> } | { ok: false; result: string };

/** Schemas by their JSON: a server lists the same tools turn after turn, each compiled once. */
const compiled = new Map<string, z.ZodType | null>();
const MAX_COMPILED = 1_000;
const MAX_ISSUES_SAID = 3;

/**
 * A model's arguments for a tool, checked against the tool's JSON schema before anything runs.
 * What fails is not sent to the tool: it becomes the call's result, "Not run: invalid arguments:
 * …", saying where and what, so the model can correct itself. A schema this checker cannot read
 * leaves the check to the server (logged), but the arguments must still be a JSON object.
 */
export function checkToolArguments(tool: { name: string; parameters: Record<string, unknown> }, argumentsJson: string): CheckedArguments {
  let args: unknown;
  try {
    args = argumentsJson.trim() === "" ? {} : JSON.parse(argumentsJson);
  } catch {
    return { ok: false, result: notRunResult.invalidArguments(`they are not valid JSON (${argumentsJson.slice(0, 80)})`) };
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) return { ok: false, result: notRunResult.invalidArguments("they must be a JSON object of named arguments") };
  const schema = schemaOf(tool);
  const checked = schema?.safeParse(args);
  if (checked && !checked.success) {
    const issues = checked.error.issues.slice(0, MAX_ISSUES_SAID).map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(the arguments)"}: ${issue.message}`);
    return { ok: false, result: notRunResult.invalidArguments(issues.join("; ")) };
  }
  return { ok: true, args: args as Record<string, unknown> };
}

function schemaOf(tool: { name: string; parameters: Record<string, unknown> }): z.ZodType | null {
  const key = JSON.stringify(tool.parameters);
  if (compiled.has(key)) return compiled.get(key)!;
  let schema: z.ZodType | null;
  try {
    schema = z.fromJSONSchema(tool.parameters as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    log.warn("a tool's input schema cannot be checked here; its server checks it", { tool: tool.name, error });
    schema = null;
  }
  if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, schema);
  return schema;
}
