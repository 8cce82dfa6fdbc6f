"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ForkDetail } from "@/lib/handoffs/read-forks";
import { MessageList } from "@/components/conversation/message-list";
import type { MentionHandles } from "@/components/conversation/remark-mentions";

const noHandles: MentionHandles = { known: new Set(), mine: null };

/**
 * What happened in a forked context: the messages copied from the parent as its starting point
 * (marked as copies), the specialist's own steps and its result, with the way back to the
 * parent. Read-only: the fork is the specialist's workspace.
 */
export function ForkView({ fork, userId, headingLevel }: { fork: ForkDetail; userId: string; headingLevel: "h1" | "h2" }) {
  const router = useRouter();
  const Heading = headingLevel;
  const Sub = headingLevel === "h1" ? "h2" : "h3";
  const agent = fork.agent?.displayName ?? "The specialist";
  const copied = fork.messages.filter((message) => message.metadata.copiedFrom);
  const own = fork.messages.filter((message) => !message.metadata.copiedFrom);
  const parentLabel = fork.parent.type === "group" ? `#${fork.parent.title}` : fork.parent.title;
  const openFork = (forkId: string) => router.push(`/c/${forkId}`);
  return (
    <div className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm">
        <ol className="flex flex-wrap items-center gap-1 text-muted">
          {fork.root.id !== fork.parent.id && (
            <li>
              <Link href={`/c/${fork.root.id}`} className="text-link hover:underline">
                {fork.root.title}
              </Link>
              <span aria-hidden="true"> › </span>
            </li>
          )}
          <li>
            <Link href={`/c/${fork.parent.id}`} className="text-link hover:underline">
              {parentLabel}
            </Link>
            <span aria-hidden="true"> › </span>
          </li>
          <li aria-current="page">{fork.title}</li>
        </ol>
      </nav>
      <div className="flex flex-wrap items-center gap-2">
        <Heading id="fork-title" tabIndex={-1} className="text-lg font-semibold text-slate-900 outline-none dark:text-slate-100">
          {agent}&apos;s forked context
        </Heading>
        <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${fork.status === "finished" ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-100" : "bg-amber-100 text-amber-950 dark:bg-amber-900/60 dark:text-amber-50"}`}>
          {fork.status === "finished" ? "Finished" : "Working…"}
        </span>
      </div>
      <p className="text-sm text-muted">
        {agent} works here on its own; nobody can post into a fork. Its result is merged into {parentLabel} as one message.
      </p>
      <section aria-labelledby="fork-copied">
        <Sub id="fork-copied" className="mb-1 text-sm font-semibold">
          Starting context: {copied.length} message{copied.length === 1 ? "" : "s"} copied from {parentLabel}
        </Sub>
        <ol aria-label="Copied messages" className="rounded-md border border-dashed border-slate-300 dark:border-slate-700">
          <MessageList messages={copied} readUpTo={Number.MAX_SAFE_INTEGER} openedAt={0} userId={userId} handles={noHandles} />
        </ol>
      </section>
      <section aria-labelledby="fork-steps">
        <Sub id="fork-steps" className="mb-1 text-sm font-semibold">
          {agent}&apos;s steps{fork.status === "finished" ? " and result" : ""}
        </Sub>
        {own.length === 0 ? (
          <p className="text-sm text-muted" aria-live="polite">
            {agent} is working…
          </p>
        ) : (
          <ol aria-label="Steps in the fork">
            <MessageList messages={own} readUpTo={Number.MAX_SAFE_INTEGER} openedAt={0} userId={userId} handles={noHandles} onOpenFork={openFork} />
          </ol>
        )}
        {fork.status === "finished" && <p className="mt-1 text-xs text-muted">The last message is the result, merged into {parentLabel}.</p>}
      </section>
      {fork.forks.length > 0 && (
        <section aria-labelledby="fork-children">
          <Sub id="fork-children" className="mb-1 text-sm font-semibold">
            Forks made here
          </Sub>
          <ForkLinks forks={fork.forks} />
        </section>
      )}
    </div>
  );
}

export function ForkLinks({ forks, onNavigate }: { forks: ForkDetail["forks"]; onNavigate?: () => void }) {
  return (
    <ul className="space-y-1 text-sm">
      {forks.map((fork) => (
        <li key={fork.id}>
          <Link href={`/c/${fork.id}`} onClick={onNavigate} className="text-link hover:underline">
            {fork.agent?.displayName ?? fork.title}: “{fork.question.length > 60 ? `${fork.question.slice(0, 57)}…` : fork.question}”
          </Link>{" "}
          <span className="text-xs text-muted">({fork.status === "finished" ? "finished" : "working"})</span>
        </li>
      ))}
    </ul>
  );
}
