import { get_encoding, get_encoding_name_for_model, type Tiktoken, type TiktokenEncoding, type TiktokenModel } from "tiktoken";
import type { LoopMessage } from "./types";

/** An image part sent with `detail: "low"`, as OpenAI counts it. */
export const IMAGE_PART_TOKENS = 85;

/**
 * Text is encoded in pieces of at most this many characters, cut at whitespace where possible:
 * BPE is quadratic on one long unbroken run (e.g. 100k × "a"), and whitespace boundaries leave
 * ordinary text's count unchanged.
 */
const CHUNK_CHARS = 2_000;
/** One encoder per encoding (each holds megabytes of WebAssembly memory), shared by every model that uses it. */
const encoders = new Map<TiktokenEncoding, Tiktoken>();
const encodingOfModel = new Map<string, TiktokenEncoding>();

function encodingNameFor(model: string): TiktokenEncoding {
  let encoding = encodingOfModel.get(model);
  if (!encoding) {
    try {
      encoding = get_encoding_name_for_model(model as TiktokenModel);
    } catch {
      // Unknown to tiktoken (local models, future names): the newest OpenAI encoding is the best guess.
      encoding = "o200k_base";
    }
    encodingOfModel.set(model, encoding);
  }
  return encoding;
}

function encoderFor(model: string): Tiktoken {
  const encoding = encodingNameFor(model);
  let encoder = encoders.get(encoding);
  if (!encoder) {
    encoder = get_encoding(encoding);
    encoders.set(encoding, encoder);
  }
  return encoder;
}

/** The tiktoken encoding a model's text is counted with ("o200k_base" for models tiktoken does not know). */
export function encodingFor(model: string): string {
  return encodingNameFor(model);
}

/** A model's counter, for code that counts many texts for one agent (context assembly). */
export interface TokenCounter {
  encoding: string;
  count(text: string): number;
  /** See firstTokens. */
  first(text: string, max: number): { text: string; tokens: number };
  /** The same, giving the event loop a turn every YIELD_CHARS: for text of any size (a tool's 10 MB answer). */
  firstYielding?(text: string, max: number): Promise<{ text: string; tokens: number }>;
}

export function counterFor(model: string): TokenCounter {
  return {
    encoding: encodingFor(model),
    count: (text) => countTokens(text, model),
    first: (text, max) => firstTokens(text, max, model),
    firstYielding: (text, max) => firstTokensYielding(text, max, model),
  };
}

/** The pieces `text` is encoded in (see CHUNK_CHARS). */
function* chunksOf(text: string): Generator<string> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + CHUNK_CHARS, text.length);
    if (end < text.length) {
      const space = text.lastIndexOf(" ", end);
      if (space > start) end = space;
    }
    yield text.slice(start, end);
    start = end;
  }
}

/** Tokens in `text` for `model`; special-token strings in user text are counted as plain text. */
export function countTokens(text: string, model = "gpt-4o"): number {
  const encoder = encoderFor(model);
  let total = 0;
  for (const chunk of chunksOf(text)) total += encoder.encode(chunk, [], []).length;
  return total;
}

/** A message's content as sent: a string, or its text part plus each image part (`null`, a step with no text, as empty). */
export function countContent(content: LoopMessage["content"], count: (text: string) => number): number {
  if (content === null) return 0;
  if (typeof content === "string") return count(content);
  return content.reduce((sum, part) => sum + (part.type === "text" ? count(part.text) : IMAGE_PART_TOKENS), 0);
}

/**
 * The text of the first `max` tokens of `text` and how many tokens it has in all, counted as
 * countTokens counts. A character whose bytes the boundary splits is dropped, not mangled.
 */
export function firstTokens(text: string, max: number, model = "gpt-4o"): { text: string; tokens: number } {
  const steps = firstTokensSteps(text, max, model);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Characters encoded between two turns of the event loop: a few milliseconds of work. */
const YIELD_CHARS = 64 * 1024;

/** firstTokens, giving the event loop a turn every YIELD_CHARS characters: the same result. */
export async function firstTokensYielding(text: string, max: number, model = "gpt-4o"): Promise<{ text: string; tokens: number }> {
  const steps = firstTokensSteps(text, max, model);
  for (let encoded = 0; ; ) {
    const step = steps.next();
    if (step.done) return step.value;
    encoded += step.value;
    if (encoded >= YIELD_CHARS) {
      encoded = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

/** firstTokens's work, chunk by chunk: yields each chunk's length, returns the result. */
function* firstTokensSteps(text: string, max: number, model: string): Generator<number, { text: string; tokens: number }> {
  const encoder = encoderFor(model);
  let kept = "";
  let tokens = 0;
  for (const chunk of chunksOf(text)) {
    const encoded = encoder.encode(chunk, [], []);
    const room = max - tokens;
    if (room >= encoded.length) kept += chunk;
    // `stream: true` holds back an incomplete character at the end instead of writing U+FFFD.
    else if (room > 0) kept += new TextDecoder().decode(encoder.decode(encoded.slice(0, room)), { stream: true });
    tokens += encoded.length;
    yield chunk.length;
  }
  return { text: kept, tokens };
}

/** Encoders hold WebAssembly memory; free them on shutdown. */
export function freeEncoders(): void {
  for (const encoder of new Set(encoders.values())) encoder.free();
  encoders.clear();
}
