import type { MessageGroup as Group } from "./group-messages";
import { Avatar, colourFor } from "@/components/ui/avatar";
import { Markdown } from "./markdown";

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });

function authorView(author: Group["author"]) {
  if (author.kind === "user") return { name: author.name, colour: colourFor(author.id), badge: null };
  if (author.kind === "agent") return { name: author.displayName, colour: author.color, badge: "agent" };
  return { name: "Chorus", colour: "#64748b", badge: null };
}

export function MessageGroup({ group }: { group: Group }) {
  const first = group.messages[0]!;
  const view = authorView(group.author);
  if (group.author.kind === "system") {
    return (
      <li className="px-4 py-2 text-center text-sm text-slate-500 dark:text-slate-400" data-seq={first.seq}>
        {group.messages.map((message) => (
          <p key={message.id} className="whitespace-pre-wrap">{message.content}</p>
        ))}
      </li>
    );
  }
  return (
    <li className="flex gap-3 px-4 py-2 hover:bg-slate-50 dark:hover:bg-slate-900/60" aria-label={`Messages from ${view.name}`}>
      <Avatar name={view.name} colour={view.colour} />
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline gap-2">
          <span className="font-semibold text-slate-900 dark:text-slate-100">{view.name}</span>
          {view.badge && (
            <span className="rounded bg-brand-100 px-1.5 py-0.5 text-[10px] font-semibold uppercase tracking-wide text-brand-700 dark:bg-brand-700/30 dark:text-brand-100">
              {view.badge}
            </span>
          )}
          <time className="text-xs text-slate-500" dateTime={first.createdAt}>
            {timeFormat.format(new Date(first.createdAt))}
          </time>
        </div>
        {group.messages.map((message) => (
          <div key={message.id} data-seq={message.seq} className="text-slate-800 dark:text-slate-200">
            <Markdown text={message.content} />
          </div>
        ))}
      </div>
    </li>
  );
}
