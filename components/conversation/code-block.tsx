"use client";

import { useRef, useState, type ReactNode } from "react";

/** A fenced code block: its language named, and a button that copies exactly its text. */
export function CodeBlock({ language, children }: { language: string | null; children: ReactNode }) {
  const pre = useRef<HTMLPreElement>(null);
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText((pre.current?.innerText ?? "").replace(/\n$/, ""));
    setCopied(true);
    setTimeout(() => setCopied(false), 2_000);
  };
  return (
    <figure className="my-2 overflow-hidden rounded-lg border border-slate-200 dark:border-slate-800" aria-label={language ? `${language} code` : "Code"}>
      <figcaption className="flex items-center justify-between bg-slate-200 px-3 py-1 text-xs dark:bg-slate-800">
        <span className="font-mono font-semibold text-muted-strong">{language ?? "text"}</span>
        <button type="button" onClick={() => void copy()} className="rounded px-2 py-0.5 font-medium text-muted-strong hover:bg-slate-300 dark:hover:bg-slate-700">
          <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
          <span className="sr-only"> code</span>
        </button>
      </figcaption>
      <pre ref={pre} className="overflow-x-auto bg-[var(--code-bg)] p-3 text-sm">
        {children}
      </pre>
    </figure>
  );
}
