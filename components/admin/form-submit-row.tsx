import type { ReactNode } from "react";

/**
 * A form's last row: the server's refusal (announced, and next to the button that caused it), the
 * submit button, any other buttons, and what the last save did (announced politely).
 */
export function FormSubmitRow({ error, errorId, busy, label, busyLabel, done, children }: { error: string | null; errorId?: string; busy: boolean; label: string; busyLabel: string; done: string | null; children?: ReactNode }) {
  return (
    <div className="space-y-2">
      {error && (
        <p id={errorId} role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300">
          {error}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={busy} className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60">
          {busy ? busyLabel : label}
        </button>
        {children}
        <p aria-live="polite" className="text-sm text-muted">
          {done}
        </p>
      </div>
    </div>
  );
}
