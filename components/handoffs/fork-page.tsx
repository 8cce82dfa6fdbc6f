"use client";

import { useEffect } from "react";
import type { ForkDetail } from "@/lib/handoffs/read-forks";
import { useFork } from "@/hooks/use-forks";
import { ForkView } from "./fork-view";

/** A forked context at its own address: server-rendered, then kept current while it runs. */
export function ForkPage({ fork: initial, userId }: { fork: ForkDetail; userId: string }) {
  const { data } = useFork(initial.id, initial);
  useEffect(() => {
    document.getElementById("fork-title")?.focus();
  }, []);
  return (
    <section aria-label="Forked context" className="h-full overflow-y-auto p-4 sm:p-6">
      <div className="mx-auto max-w-3xl">
        <ForkView fork={data ?? initial} userId={userId} headingLevel="h1" />
      </div>
    </section>
  );
}
