import { encoding_for_model, get_encoding, type Tiktoken, type TiktokenModel } from "tiktoken";

/**
 * Text is encoded in pieces of at most this many characters, cut at whitespace where possible:
 * BPE is quadratic on one long unbroken run (e.g. 100k × "a"), and whitespace boundaries leave
 * ordinary text's count unchanged.
 */
const CHUNK_CHARS = 2_000;
const encoders = new Map<string, Tiktoken>();

function encoderFor(model: string): Tiktoken {
  const cached = encoders.get(model);
  if (cached) return cached;
  let encoder: Tiktoken;
  try {
    encoder = encoding_for_model(model as TiktokenModel);
  } catch {
    // Unknown to tiktoken (local models, future names): the newest OpenAI encoding is the best guess.
    encoder = encoders.get("o200k_base") ?? get_encoding("o200k_base");
    encoders.set("o200k_base", encoder);
  }
  encoders.set(model, encoder);
  return encoder;
}

/** The tiktoken encoding a model's text is counted with ("o200k_base" for models tiktoken does not know). */
export function encodingFor(model: string): string {
  return encoderFor(model).name ?? "o200k_base";
}

/** A model's counter, for code that counts many texts for one agent (context assembly). */
export interface TokenCounter {
  encoding: string;
  count(text: string): number;
}

export function counterFor(model: string): TokenCounter {
  return { encoding: encodingFor(model), count: (text) => countTokens(text, model) };
}

/** Tokens in `text` for `model`; special-token strings in user text are counted as plain text. */
export function countTokens(text: string, model = "gpt-4o"): number {
  const encoder = encoderFor(model);
  let total = 0;
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + CHUNK_CHARS, text.length);
    if (end < text.length) {
      const space = text.lastIndexOf(" ", end);
      if (space > start) end = space;
    }
    total += encoder.encode(text.slice(start, end), [], []).length;
    start = end;
  }
  return total;
}

/** Encoders hold WebAssembly memory; free them on shutdown. */
export function freeEncoders(): void {
  for (const encoder of new Set(encoders.values())) encoder.free();
  encoders.clear();
}
