import { z } from "zod";
import { AppError } from "@/lib/errors/app-error";
import { refineSingleLine } from "@/lib/validation/plain-text";

/*
 * What an admin may send to configure an MCP server, with refusals that say what to write
 * instead. Shared by the HTTP API and (later) the admin screens.
 */

const NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;
// RFC 9110's token: the characters a header name may have.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]{1,100}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;
// The transport sets these itself; a configured value would break the protocol.
const RESERVED_HEADERS = new Set(["accept", "content-type", "content-length", "host", "connection", "mcp-session-id", "mcp-protocol-version", "last-event-id"]);
const MAX_HEADERS = 20;
const MAX_ENV = 50;

export const serverNameSchema = z
  .string({ error: "name is required: a short name like notes or issue-tracker." })
  .trim()
  .regex(NAME, "name must be 1–32 lowercase letters, digits, - or _, starting with a letter or digit (like notes or issue-tracker).");

const urlSchema = z
  .string({ error: "url is required for an http server: its Streamable HTTP endpoint, like https://mcp.example.com/mcp." })
  .trim()
  .max(2_000, "url can be at most 2,000 characters.")
  .superRefine((value, context) => {
    const problem = urlProblem(value);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });

function urlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `url is not a valid address (${JSON.stringify(value.slice(0, 100))}): write it in full, like https://mcp.example.com/mcp.`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `url must start with http:// or https:// (not ${url.protocol}//).`;
  // Whatever is in the URL is stored and shown as it is; credentials belong in the encrypted headers.
  if (url.username || url.password) return "url must not contain a user name or password: send credentials as a header (for example authorization), which is stored encrypted.";
  return null;
}

const headerValue = z.string().max(8_000, "A header value can be at most 8,000 characters.").superRefine(refineSingleLine("Header values"));
const envValue = z.string().max(32_000, "An environment value can be at most 32,000 characters.").superRefine(refineSingleLine("Environment values"));

/** Header names are case-insensitive: kept lowercase, so a change replaces the value it means. */
const headerName = z
  .string()
  .transform((name) => name.trim().toLowerCase())
  .superRefine((name, context) => {
    if (!HEADER_NAME.test(name)) context.addIssue({ code: "custom", message: `${JSON.stringify(name)} is not a valid header name (letters, digits and -, like authorization or x-api-key).` });
    else if (RESERVED_HEADERS.has(name)) context.addIssue({ code: "custom", message: `The ${name} header is set by Chorus for the protocol; leave it out.` });
  });
const envName = z.string().regex(ENV_NAME, "Environment variable names are letters, digits and _, not starting with a digit (like API_TOKEN).");

const countAtMost = (max: number, what: string) => (record: Record<string, unknown>) => Object.keys(record).length <= max || { message: `At most ${max} ${what}.` };
const headers = <Value extends z.ZodType>(value: Value) => z.record(headerName, value).refine(countAtMost(MAX_HEADERS, "headers"));
const env = <Value extends z.ZodType>(value: Value) => z.record(envName, value).refine(countAtMost(MAX_ENV, "environment variables"));

const commandSchema = z
  .string({ error: "command is required for a stdio server: the program to run, like npx or /usr/local/bin/notes-mcp." })
  .trim()
  .min(1, "command is required for a stdio server: the program to run, like npx or /usr/local/bin/notes-mcp.")
  .max(1_000, "command can be at most 1,000 characters.")
  .superRefine(refineSingleLine("Commands"));
const argsSchema = z
  .array(z.string().max(4_000, "An argument can be at most 4,000 characters.").superRefine(refineSingleLine("Arguments")), { error: 'args must be a list of strings, like ["-y", "@acme/notes-mcp"].' })
  .max(50, "At most 50 args.");
const enabledSchema = z.boolean({ error: "enabled must be true or false." });

const httpServer = z.strictObject({ transport: z.literal("http"), name: serverNameSchema, url: urlSchema, headers: headers(headerValue).optional(), enabled: enabledSchema.optional() });
const stdioServer = z.strictObject({ transport: z.literal("stdio"), name: serverNameSchema, command: commandSchema, args: argsSchema.optional(), env: env(envValue).optional(), enabled: enabledSchema.optional() });

/** A new server: `{transport: "http", name, url, headers?}` or `{transport: "stdio", name, command, args?, env?}`. */
export const newServerSchema = z.discriminatedUnion("transport", [httpServer, stdioServer], { error: 'transport must be "http" (a Streamable HTTP url) or "stdio" (a command to run).' });
export type NewServer = z.infer<typeof newServerSchema>;

/**
 * Changes to a server. Secrets are never shown back, so they change one by one: a name with a
 * value sets it, with null removes it, and names not sent keep their value. The transport
 * cannot change (delete the server and add it again).
 */
export const serverChangesSchema = z
  .strictObject({
    name: serverNameSchema.optional(),
    url: urlSchema.optional(),
    headers: headers(headerValue.nullable()).optional(),
    command: commandSchema.optional(),
    args: argsSchema.optional(),
    env: env(envValue.nullable()).optional(),
    enabled: enabledSchema.optional(),
  })
  .refine((changes) => Object.keys(changes).length > 0, "Say what to change: name, url, headers, command, args, env or enabled.");
export type ServerChanges = z.infer<typeof serverChangesSchema>;

/** The body of PUT /api/agents/{id}/tools: the whole set of tools the agent may call. */
export const agentToolsSchema = z.strictObject({
  tools: z
    .array(
      z.strictObject({
        serverId: z.string({ error: "Each tool needs the serverId of its MCP server." }).trim().min(1, "Each tool needs the serverId of its MCP server."),
        name: z.string({ error: "Each tool needs its name, as the server lists it." }).min(1, "Each tool needs its name, as the server lists it.").max(200, "A tool name can be at most 200 characters."),
        askFirst: z.boolean({ error: "askFirst must be true or false." }).default(false),
      }),
      { error: 'tools must be a list, like [{"serverId": "…", "name": "search_notes", "askFirst": false}] (an empty list turns every tool off).' },
    )
    .max(500, "At most 500 tools per agent."),
});
export type AgentToolsInput = z.infer<typeof agentToolsSchema>;

/** What the fields of a server are, for a refusal of one it does not have. */
export const SERVER_FIELDS = "An http server has name, url, headers and enabled; a stdio server has name, command, args, env and enabled.";

/** Parses input at the boundary; the first problem becomes a 400 naming the field (`fields` lists the known ones for an unknown one). */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown, fields = ""): z.infer<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (!issue) throw new AppError("bad_request", "Invalid request.");
  if (issue.code === "unrecognized_keys") {
    const where = issue.path.length > 0 ? ` in ${issue.path.join(".")}` : "";
    throw new AppError("bad_request", `Unknown field${issue.keys.length > 1 ? "s" : ""}${where}: ${issue.keys.join(", ")}.${fields ? ` ${fields}` : ""}`);
  }
  // A record's key that failed: its own message says what is wrong with the name.
  if (issue.code === "invalid_key" && issue.issues[0]) throw new AppError("bad_request", issue.issues[0].message);
  const at = issue.path.length > 0 && !issue.message.startsWith(String(issue.path[0])) ? `${issue.path.join(".")}: ` : "";
  throw new AppError("bad_request", `${at}${issue.message}`);
}
