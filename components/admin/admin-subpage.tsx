import Link from "next/link";
import type { ReactNode } from "react";

/** An admin page under Agents: the way back, its title, what it is for, then its content. */
export function AdminSubpage({ crumb, title, intro, children }: { crumb: string; title: string; intro: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-3xl space-y-4 p-4 sm:p-6">
      <p className="text-sm">
        <Link href="/admin/agents" className="text-link underline">
          Agents
        </Link>{" "}
        / {crumb}
      </p>
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="text-sm text-muted">{intro}</p>
      {children}
    </div>
  );
}
