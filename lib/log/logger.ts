/**
 * Structured one-line logs: `level message {context}`. Kept dependency-free; the context object
 * carries ids (userId, conversationId, …) so a log line can be traced to what caused it.
 */
type Level = "debug" | "info" | "warn" | "error";

const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function threshold(): number {
  const configured = (process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "warn" : "info")) as Level;
  return order[configured] ?? order.info;
}

function serialise(context: Record<string, unknown>): string {
  const plain = Object.fromEntries(
    Object.entries(context).map(([key, value]) =>
      value instanceof Error ? [key, { message: value.message, stack: value.stack }] : [key, value],
    ),
  );
  return Object.keys(plain).length > 0 ? ` ${JSON.stringify(plain)}` : "";
}

function write(level: Level, message: string, context: Record<string, unknown> = {}): void {
  if (order[level] < threshold()) return;
  const line = `${new Date().toISOString()} ${level.toUpperCase()} ${message}${serialise(context)}`;
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
}

export const log = {
  debug: (message: string, context?: Record<string, unknown>) => write("debug", message, context),
  info: (message: string, context?: Record<string, unknown>) => write("info", message, context),
  warn: (message: string, context?: Record<string, unknown>) => write("warn", message, context),
  error: (message: string, context?: Record<string, unknown>) => write("error", message, context),
};
