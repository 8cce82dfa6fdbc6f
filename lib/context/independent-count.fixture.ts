import { get_encoding, type Tiktoken, type TiktokenEncoding } from "tiktoken";
import type { LoopMessage } from "@/lib/llm/types";
import type { OfferedTool } from "./types";

/** Tests count with tiktoken directly, apart from the code under test. */
const encoders = new Map<string, Tiktoken>();

export const encode = (encoding: string, text: string): number => {
  if (!encoders.has(encoding)) encoders.set(encoding, get_encoding(encoding as TiktokenEncoding));
  return encoders.get(encoding)!.encode(text, [], []).length;
};

export function freeTestEncoders(): void {
  encoders.forEach((encoder) => encoder.free());
  encoders.clear();
}

/**
 * The cookbook's num_tokens_from_messages, written out independently of the code under test, with
 * context.md's rule for tool steps: an assistant message with calls adds, per call, name + arguments + 3.
 */
export function independentCount(messages: LoopMessage[], encoding: string): number {
  let total = 3;
  for (const message of messages) {
    let content = 0;
    if (typeof message.content === "string") content = encode(encoding, message.content);
    else if (message.content !== null) content = message.content.reduce((sum, part) => sum + (part.type === "text" ? encode(encoding, part.text) : 85), 0);
    total += 3 + encode(encoding, message.role) + content;
    if ("name" in message && message.name !== undefined) total += encode(encoding, message.name) + 1;
    if ("tool_calls" in message) for (const call of message.tool_calls) total += encode(encoding, call.function.name) + encode(encoding, call.function.arguments) + 3;
  }
  return total;
}

/** One tool definition: its compact JSON, keys in the order name, description, parameters. */
export function independentToolTokens(tool: OfferedTool, encoding: string): number {
  return encode(encoding, `{"name":${JSON.stringify(tool.name)},"description":${JSON.stringify(tool.description)},"parameters":${JSON.stringify(tool.parameters)}}`);
}
