"use client";

import Link from "next/link";
import { useEffect, useRef, type ReactNode } from "react";
import { useRemoval } from "@/hooks/use-live-conversation";

/**
 * The open conversation while this person takes part; once they leave it or are removed (in any
 * tab), a page that says so instead: the conversation's own listeners stop with it.
 */
export function ConversationAccess({ conversationId, name, children }: { conversationId: string; name: string; children: ReactNode }) {
  const removal = useRemoval(conversationId);
  if (!removal) return children;
  return <NoAccess reason={removal.removedBy ? `${removal.removedBy} removed you from ${name}.` : `You left ${name}.`} />;
}

function NoAccess({ reason }: { reason: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The control that had the keyboard is gone with the conversation: start from here.
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="flex h-full flex-col items-center justify-center gap-3 p-8 text-center">
      <h1 ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
        You no longer have access to this conversation
      </h1>
      <p className="text-muted">{reason}</p>
      <Link href="/channels" className="text-link underline">
        Browse channels
      </Link>
    </div>
  );
}
