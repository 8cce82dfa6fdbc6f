import type { QuotedMessage } from "@/lib/conversations/message-dto";

/** The message a reply answers: who wrote it and how it starts, linking to it in the conversation. */
export function ReplyQuote({ quote, conversationId }: { quote: QuotedMessage; conversationId: string }) {
  return (
    <a
      href={`/c/${conversationId}?at=${quote.seq}`}
      className="mb-1 block max-w-full truncate border-l-2 border-slate-400 pl-2 text-xs text-muted-strong hover:underline dark:border-slate-500"
    >
      <span className="font-semibold">Reply to {quote.authorName}:</span> {quote.deleted ? <em>message deleted</em> : quote.excerpt}
    </a>
  );
}
