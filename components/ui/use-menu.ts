"use client";

import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from "react";

const ITEMS = '[role="menuitem"]:not([disabled])';

/**
 * A menu button's behaviour (WAI-ARIA menu button pattern): opening focuses the first item,
 * arrows/Home/End move between items, Escape closes and gives focus back to the button, Tab or
 * a click elsewhere closes.
 */
export function useMenu() {
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const id = useId();

  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    if (refocus) trigger.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    // The first item, or the menu itself when it has none to offer (Escape still closes it).
    (menu.current?.querySelector<HTMLElement>(ITEMS) ?? menu.current)?.focus();
    const outside = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !trigger.current?.contains(target)) close(false);
    };
    document.addEventListener("mousedown", outside);
    return () => document.removeEventListener("mousedown", outside);
  }, [open, close]);

  const onMenuKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>(ITEMS) ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      items[(index + items.length) % items.length]?.focus();
    };
    if (event.key === "ArrowDown") move(at + 1);
    else if (event.key === "ArrowUp") move(at - 1);
    else if (event.key === "Home") move(0);
    else if (event.key === "End") move(items.length - 1);
    else if (event.key === "Escape") {
      event.preventDefault();
      close(true);
    } else if (event.key === "Tab") close(false);
  };

  const onTriggerKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      close(true);
    }
  };

  return {
    open,
    close,
    triggerProps: {
      ref: trigger,
      "aria-haspopup": "menu" as const,
      "aria-expanded": open,
      "aria-controls": open ? id : undefined,
      onClick: () => setOpen((value) => !value),
      onKeyDown: onTriggerKeyDown,
    },
    menuProps: { ref: menu, id, role: "menu" as const, tabIndex: -1, onKeyDown: onMenuKeyDown },
  };
}
