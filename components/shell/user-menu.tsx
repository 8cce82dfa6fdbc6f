"use client";

import Link from "next/link";
import type { SessionUser } from "@/lib/auth/session-user";
import type { PersonAvatar } from "@/lib/avatars/avatar-rules";
import { UserAvatar } from "@/components/ui/avatar";
import { useMenu } from "@/components/ui/use-menu";

const item = "block w-full rounded-md px-3 py-1.5 text-left text-sm hover:bg-slate-100 focus:bg-slate-100 dark:hover:bg-slate-800 dark:focus:bg-slate-800";

export function UserMenu({ user, signOut }: { user: SessionUser & PersonAvatar; signOut: (input: unknown) => Promise<unknown> }) {
  const { open, close, triggerProps, menuProps } = useMenu();
  return (
    <div className="relative border-t border-slate-200 p-2 dark:border-slate-800">
      <button type="button" {...triggerProps} className="flex w-full items-center gap-2 rounded-md p-2 text-left hover:bg-slate-200 dark:hover:bg-slate-800">
        <UserAvatar person={user} size="sm" />
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm font-semibold">{user.name}</span>
          <span className="block truncate text-xs text-muted">{user.role}</span>
        </span>
      </button>
      {open && (
        <div {...menuProps} aria-label="Account" className="absolute bottom-full left-2 right-2 mb-1 rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
          <p className="truncate px-3 py-1.5 text-xs text-muted">{user.email}</p>
          {user.role === "admin" && (
            <>
              <Link href="/admin/agents" role="menuitem" onClick={() => close(false)} className={item}>
                Manage agents
              </Link>
              <Link href="/admin/people" role="menuitem" onClick={() => close(false)} className={item}>
                People and invites
              </Link>
            </>
          )}
          <Link href="/settings" role="menuitem" onClick={() => close(false)} className={item}>
            Settings and API tokens
          </Link>
          <button type="button" role="menuitem" onClick={() => void signOut(undefined)} className={item}>
            Sign out
          </button>
        </div>
      )}
    </div>
  );
}
