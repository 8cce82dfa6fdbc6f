"use client";

import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * The signed-in frame: a skip link, the sidebar beside the page on wide screens, and below the
 * `md` breakpoint a drawer behind a "Conversations" button (closed by Escape, the backdrop or
 * navigating), so a phone gives the page its whole width and nothing scrolls sideways.
 */
export function AppShell({ sidebar, children }: { sidebar: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  const toggle = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLDivElement>(null);

  // Navigating from the drawer closes it.
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    setOpen(false);
  }

  // After navigating, the keyboard starts at the new page's heading (a conversation puts it in
  // its composer itself), not on a link of the page that was left.
  const firstPath = useRef(pathname);
  useEffect(() => {
    if (pathname === firstPath.current || pathname.startsWith("/c/")) return;
    firstPath.current = "";
    const heading = document.querySelector<HTMLElement>("main h1");
    if (heading && !heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    (heading ?? document.getElementById("main"))?.focus();
  }, [pathname]);

  useEffect(() => {
    if (!open) return;
    drawer.current?.querySelector<HTMLElement>("a, button")?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <div className="flex h-full overflow-hidden">
      <a href="#main" className="sr-only z-50 rounded-md bg-brand-600 px-3 py-2 font-semibold text-white focus:not-sr-only focus:absolute focus:left-2 focus:top-2">
        Skip to content
      </a>
      {/* Following a link closes the drawer, the current page's own link included. */}
      <div ref={drawer} id="conversations-drawer" onClick={(event) => (event.target as HTMLElement).closest("a") && setOpen(false)} className={open ? "fixed inset-y-0 left-0 z-40 flex shadow-xl md:static md:shadow-none" : "hidden md:flex"}>
        {sidebar}
      </div>
      {open && <div aria-hidden="true" onClick={() => setOpen(false)} className="fixed inset-0 z-30 bg-black/50 md:hidden" />}
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="flex items-center gap-2 border-b border-slate-200 px-2 py-1.5 md:hidden dark:border-slate-800">
          <button
            ref={toggle}
            type="button"
            aria-expanded={open}
            aria-controls="conversations-drawer"
            onClick={() => setOpen((value) => !value)}
            className="flex items-center gap-2 rounded-md px-2 py-1.5 text-sm font-semibold hover:bg-slate-100 dark:hover:bg-slate-800"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
              <path d="M3 5h14v2H3zM3 9h14v2H3zM3 13h14v2H3z" />
            </svg>
            Conversations
          </button>
        </div>
        <main id="main" tabIndex={-1} className="min-h-0 min-w-0 flex-1 outline-none">
          {children}
        </main>
      </div>
    </div>
  );
}
