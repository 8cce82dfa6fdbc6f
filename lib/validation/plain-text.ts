import type { z } from "zod";

// Control characters other than tab and line breaks, C1 controls included.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
// A high surrogate without its low half, or a low one without its high half.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text people type: control characters (PostgreSQL refuses NUL outright) and broken UTF-16 (a
 * lone surrogate would be stored silently altered) are refused with where they are, never
 * stripped, so what is stored is exactly what was sent. `what` names the field: "Messages".
 */
export function refinePlainText(what: string) {
  return (text: string, ctx: z.RefinementCtx) => {
    const control = CONTROL.exec(text);
    if (control) {
      const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
      ctx.addIssue({ code: "custom", message: `${what} can't contain control characters (U+${code} at character ${control.index + 1}). Remove it and try again.` });
      return;
    }
    const lone = LONE_SURROGATE.exec(text);
    if (lone) {
      ctx.addIssue({ code: "custom", message: `${what} contain a broken character (an unpaired UTF-16 surrogate at character ${lone.index + 1}). Remove it and try again.` });
    }
  };
}
