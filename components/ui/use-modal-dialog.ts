"use client";

import { useEffect, useRef } from "react";

/**
 * A modal <dialog> opened once what it shows is set (so focus lands on its Close button, not an
 * empty box). The browser keeps focus inside, Escape closes it, and focus returns to what opened it.
 */
export function useModalDialog(shown: unknown) {
  const dialog = useRef<HTMLDialogElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!shown || dialog.current?.open) return;
    dialog.current?.showModal();
    close.current?.focus();
  }, [shown]);
  return { dialog, close, dismiss: () => dialog.current?.close() };
}
