"use client";

import { useId, useRef, useState } from "react";
import type { MessageMetadata } from "@/lib/conversations/message-metadata";

/**
 * What an agent reply cost, behind a small button: model, provider, tokens in and out, latency.
 * Opens on click or Enter; Escape or leaving closes it and gives focus back to the button.
 */
export function ReplyDetails({ metadata }: { metadata: MessageMetadata }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const rows: [string, string][] = [
    ["Model", metadata.model ?? "—"],
    ["Provider", metadata.provider === "offline" ? "offline model" : metadata.provider === "openai" ? "OpenAI-compatible" : "—"],
    ["Tokens in", metadata.usage ? metadata.usage.inputTokens.toLocaleString() : "—"],
    ["Tokens out", metadata.usage ? metadata.usage.outputTokens.toLocaleString() : "—"],
    ["Latency", metadata.latencyMs !== undefined ? `${(metadata.latencyMs / 1000).toFixed(2)} s` : "—"],
  ];
  return (
    <span className="relative" onKeyDown={(event) => event.key === "Escape" && open && close()}>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((value) => !value)}
        className="rounded px-1 text-xs text-muted hover:bg-slate-200 dark:hover:bg-slate-800"
      >
        Details<span className="sr-only"> of this reply</span>
      </button>
      {open && (
        <div id={id} role="group" aria-label="Reply details" className="absolute left-0 top-full z-20 mt-1 w-56 rounded-lg border border-slate-200 bg-white p-2 text-xs shadow-lg dark:border-slate-700 dark:bg-slate-900">
          <dl className="grid grid-cols-2 gap-x-2 gap-y-1">
            {rows.map(([term, value]) => (
              <div key={term} className="contents">
                <dt className="text-muted">{term}</dt>
                <dd className="truncate font-medium" title={value}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
        </div>
      )}
    </span>
  );
}
