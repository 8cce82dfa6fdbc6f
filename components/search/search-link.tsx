"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect } from "react";

/** The search screen's box, which Ctrl+K (⌘K) focuses when the screen is open. */
export const SEARCH_BOX_ID = "search-messages";

/**
 * The sidebar's way to search, and its shortcut from anywhere: Ctrl+K or ⌘K opens the search
 * screen, or, on it, puts the cursor back in the box with its text selected.
 */
export function SearchLink() {
  const pathname = usePathname();
  const router = useRouter();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== "k" || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      event.preventDefault();
      const box = document.getElementById(SEARCH_BOX_ID);
      if (box instanceof HTMLInputElement) {
        box.focus();
        box.select();
      } else router.push("/search");
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [router]);
  return (
    <Link
      href="/search"
      aria-current={pathname === "/search" ? "page" : undefined}
      aria-keyshortcuts="Control+K Meta+K"
      className={`mx-2 mb-2 flex items-center gap-2 rounded-md border border-slate-300 px-2 py-1.5 text-sm text-muted hover:bg-slate-200 dark:border-slate-700 dark:hover:bg-slate-800 ${pathname === "/search" ? "bg-slate-200 dark:bg-slate-800" : ""}`}
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
        <circle cx="8.5" cy="8.5" r="5.5" />
        <path d="m13 13 4.5 4.5" />
      </svg>
      <span className="flex-1">Search</span>
      <kbd aria-hidden="true" className="rounded border border-slate-300 px-1 text-[11px] dark:border-slate-600">
        Ctrl K
      </kbd>
    </Link>
  );
}
