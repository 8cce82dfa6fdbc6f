"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { ChannelListing } from "@/lib/conversations/browse-channels";

type JoinAction = (input: unknown) => Promise<ActionResult<{ conversationId: string }>>;

const members = (count: number) => `${count} ${count === 1 ? "member" : "members"}`;

/** Find a channel by name or topic, see who is in it, join it (and land in it). */
export function ChannelBrowser({ channels, query, join }: { channels: ChannelListing[]; query: string; join: JoinAction }) {
  const router = useRouter();
  const [joining, setJoining] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const joinChannel = async (channel: ChannelListing) => {
    setJoining(channel.id);
    setError(null);
    const result = await join({ conversationId: channel.id }).catch(() => ({ error: { message: "Could not reach Chorus. Try again." } }));
    setJoining(null);
    if ("error" in result) return setError(result.error.message);
    router.push(`/c/${channel.id}`);
    router.refresh();
  };

  // A plain GET form without JavaScript; with it, the page changes in place (next/form would do
  // this, but sends Next 16's development server into a reload loop).
  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const q = String(new FormData(event.currentTarget).get("q") ?? "").trim();
    router.push(q ? `/channels?q=${encodeURIComponent(q)}` : "/channels");
  };

  return (
    <div className="space-y-4">
      <form action="/channels" role="search" onSubmit={search} className="flex flex-wrap items-end gap-2">
        <label className="min-w-0 flex-1 text-sm font-medium">
          Find a channel by name or topic
          <input
            name="q"
            type="search"
            defaultValue={query}
            className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100"
          />
        </label>
        <button type="submit" className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700">
          Search
        </button>
      </form>
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      {channels.length === 0 ? (
        <p className="text-sm text-muted">{query ? `No channel matches “${query}”.` : "This project has no channels yet."}</p>
      ) : (
        <ul aria-label="Channels" className="divide-y divide-slate-200 dark:divide-slate-800">
          {channels.map((channel) => (
            <li key={channel.id} aria-label={`#${channel.name}`} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-3">
              <div className="min-w-0 flex-1">
                <p className="font-semibold">
                  #{channel.name}
                  {channel.isPrivate && <span className="ml-2 text-xs font-normal text-muted">private</span>}
                </p>
                {channel.topic && <p className="truncate text-sm text-muted-strong">{channel.topic}</p>}
                <p className="text-xs text-muted">{members(channel.memberCount)}</p>
              </div>
              {channel.joined ? (
                <Link href={`/c/${channel.id}`} className="rounded-md px-3 py-1.5 text-sm font-semibold text-link hover:bg-slate-100 dark:hover:bg-slate-800">
                  Open<span className="sr-only"> #{channel.name}</span>
                </Link>
              ) : (
                <button
                  type="button"
                  disabled={joining !== null}
                  onClick={() => void joinChannel(channel)}
                  className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
                >
                  Join<span className="sr-only"> #{channel.name}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
