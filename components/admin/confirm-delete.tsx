"use client";

interface ConfirmDeleteProps {
  label: string;
  question: string;
  /** The confirming button's word ("Deactivate"); Delete unless said. */
  confirm?: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * An inline "are you sure?" for a deletion (or another change hard to take back): the question,
 * then the confirming button (focused, so Enter confirms and Tab reaches Cancel) and Cancel.
 */
export function ConfirmDelete({ label, question, confirm = "Delete", onConfirm, onCancel }: ConfirmDeleteProps) {
  return (
    <div role="group" aria-label={label} className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-danger">{question}</span>
      <button type="button" autoFocus onClick={onConfirm} className="rounded-md bg-red-700 px-2 py-0.5 font-semibold text-white hover:bg-red-800">
        {confirm}
      </button>
      <button type="button" onClick={onCancel} className="rounded-md px-2 py-0.5 text-muted-strong hover:bg-slate-100 dark:hover:bg-slate-800">
        Cancel
      </button>
    </div>
  );
}
