import type { z } from "zod";

// Control characters other than tab and line breaks, C1 controls included.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
// A name is one line among others: every C0 and C1 control (tab and line breaks too, which forge
// lines in lists and logs), the Unicode line and paragraph separators, and the bidi controls, which
// reorder what follows them ("report\u202Efdp.exe" shows as "reportexe.pdf").
const NAME_CONTROL = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;
// A high surrogate without its low half, or a low one without its high half.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// Named in the message where the code alone would not tell a person what they typed.
const CHARACTER_NAMES: Record<string, string> = {
  "\u0009": "tab",
  "\u000A": "line feed",
  "\u000D": "carriage return",
  "\u061C": "Arabic letter mark",
  "\u200E": "left-to-right mark",
  "\u200F": "right-to-left mark",
  "\u2028": "line separator",
  "\u2029": "paragraph separator",
  "\u202A": "left-to-right embedding",
  "\u202B": "right-to-left embedding",
  "\u202C": "pop directional formatting",
  "\u202D": "left-to-right override",
  "\u202E": "right-to-left override",
  "\u2066": "left-to-right isolate",
  "\u2067": "right-to-left isolate",
  "\u2068": "first strong isolate",
  "\u2069": "pop directional isolate",
};

function refineAgainst(forbidden: RegExp, what: string) {
  return (text: string, ctx: z.RefinementCtx) => {
    const control = forbidden.exec(text);
    if (control) {
      const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
      const name = CHARACTER_NAMES[control[0]];
      ctx.addIssue({ code: "custom", message: `${what} can't contain control characters (U+${code}${name ? ` ${name}` : ""} at character ${control.index + 1}). Remove it and try again.` });
      return;
    }
    const lone = LONE_SURROGATE.exec(text);
    if (lone) {
      ctx.addIssue({ code: "custom", message: `${what} contain a broken character (an unpaired UTF-16 surrogate at character ${lone.index + 1}). Remove it and try again.` });
    }
  };
}

/**
 * Text people type: control characters (PostgreSQL refuses NUL outright) and broken UTF-16 (a
 * lone surrogate would be stored silently altered) are refused with where they are, never
 * stripped, so what is stored is exactly what was sent. `what` names the field: "Messages".
 */
export function refinePlainText(what: string) {
  return refineAgainst(CONTROL, what);
}

/**
 * A name shown on one line (a file name): as plain text, and also no tab, line break or bidi
 * control, refused the same way with the character named ("U+202E right-to-left override").
 */
export function refineSingleLine(what: string) {
  return refineAgainst(NAME_CONTROL, what);
}
