"use client";

import { useState } from "react";

/** A secret shown once (a new token, an invite link), with a Copy button. */
export function CopyOnce({ heading, label, value }: { heading: string; label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="space-y-2 rounded-lg border border-emerald-600 bg-emerald-50 p-3 text-sm dark:border-emerald-500 dark:bg-emerald-950">
      <p className="font-semibold">{heading}</p>
      <div className="flex flex-wrap items-center gap-2">
        <code aria-label={label} className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1 dark:bg-slate-900">
          {value}
        </code>
        <button
          type="button"
          onClick={() => void navigator.clipboard.writeText(value).then(() => setCopied(true))}
          className="rounded-md border border-slate-400 px-2 py-1 hover:bg-white dark:border-slate-500 dark:hover:bg-slate-900"
        >
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
    </div>
  );
}
