import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import { Avatar, colourFor } from "@/components/ui/avatar";
import { SidebarLink } from "./sidebar-link";

/** Archived channels and agent chats, apart and collapsed (open while one of them is shown). */
export function ArchivedSection({ conversations, isActive }: { conversations: ConversationSummary[]; isActive: (id: string) => boolean }) {
  if (conversations.length === 0) return null;
  return (
    <section aria-label="Archived">
      <details open={conversations.some((conversation) => isActive(conversation.id)) || undefined}>
        <summary className="cursor-pointer rounded px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-muted hover:bg-slate-200 dark:hover:bg-slate-800">
          Archived ({conversations.length})
        </summary>
        {conversations.map((conversation) => (
          <SidebarLink
            key={conversation.id}
            conversation={conversation}
            active={isActive(conversation.id)}
            icon={
              conversation.type === "group" ? (
                <span aria-hidden="true">#</span>
              ) : (
                <Avatar name={conversation.peer?.name ?? conversation.title} colour={conversation.peer?.color ?? colourFor(conversation.peer?.id ?? conversation.id)} image={conversation.peer?.avatarUrl} size="xs" />
              )
            }
          />
        ))}
      </details>
    </section>
  );
}
