import type { ReactNode } from "react";

interface ItemListProps<T> {
  items: T[];
  /** The list's accessible name ("Documents"). */
  label: string;
  /** Said instead of an empty list ("No documents yet."). */
  empty: string;
  /** Each row's accessible name, naming the record so its buttons are told apart. */
  itemLabel: (item: T) => string;
  /** Layout of a row's content (spacing, flex). */
  itemClassName?: string;
  children: (item: T) => ReactNode;
}

/** A settings page's records as one bordered list, or a line saying there are none yet. */
export function ItemList<T extends { id: string }>({ items, label, empty, itemLabel, itemClassName = "", children }: ItemListProps<T>) {
  if (items.length === 0) return <p className="text-sm text-muted-strong">{empty}</p>;
  return (
    <ul aria-label={label} className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
      {items.map((item) => (
        <li key={item.id} aria-label={itemLabel(item)} className={`p-3 text-sm ${itemClassName}`}>
          {children(item)}
        </li>
      ))}
    </ul>
  );
}
