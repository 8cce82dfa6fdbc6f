"use client";

import { useMenu } from "@/components/ui/use-menu";

export interface MessageMenuItem {
  label: string;
  run: () => void;
  danger?: boolean;
}

/** The "⋯" of a message: its actions as a menu (keyboard: arrows, Home/End, Escape). */
export function MessageMenu({ items, label }: { items: MessageMenuItem[]; label: string }) {
  const { open, close, triggerProps, menuProps } = useMenu();
  if (items.length === 0) return null;
  return (
    <div className="relative">
      <button
        type="button"
        {...triggerProps}
        aria-label={label}
        className="rounded-md border border-transparent px-1.5 text-muted-strong hover:border-slate-300 hover:bg-white focus:border-slate-300 focus:bg-white dark:hover:border-slate-600 dark:hover:bg-slate-800 dark:focus:border-slate-600 dark:focus:bg-slate-800"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
          <circle cx="4" cy="10" r="1.6" />
          <circle cx="10" cy="10" r="1.6" />
          <circle cx="16" cy="10" r="1.6" />
        </svg>
      </button>
      {open && (
        <div {...menuProps} aria-label={label} className="absolute right-0 top-full z-20 mt-1 w-48 rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              onClick={() => {
                close(false);
                item.run();
              }}
              className={`block w-full rounded-md px-3 py-1.5 text-left text-sm hover:bg-slate-100 focus:bg-slate-100 dark:hover:bg-slate-800 dark:focus:bg-slate-800 ${item.danger ? "text-danger" : ""}`}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
