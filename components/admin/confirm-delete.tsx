"use client";

/**
 * An inline "are you sure?" for a deletion: the question, then Delete (focused, so Enter confirms
 * and Tab reaches Cancel) and Cancel.
 */
export function ConfirmDelete({ label, question, onConfirm, onCancel }: { label: string; question: string; onConfirm: () => void; onCancel: () => void }) {
  return (
    <div role="group" aria-label={label} className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-danger">{question}</span>
      <button type="button" autoFocus onClick={onConfirm} className="rounded-md bg-red-700 px-2 py-0.5 font-semibold text-white hover:bg-red-800">
        Delete
      </button>
      <button type="button" onClick={onCancel} className="rounded-md px-2 py-0.5 text-muted-strong hover:bg-slate-100 dark:hover:bg-slate-800">
        Cancel
      </button>
    </div>
  );
}
