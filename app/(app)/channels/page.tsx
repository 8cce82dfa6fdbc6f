import type { Metadata } from "next";
import { ChannelBrowser } from "@/components/channels/channel-browser";
import { browseChannels } from "@/lib/conversations/browse-channels";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";
import { joinChannelAction } from "./actions";

export const metadata: Metadata = { title: "Channels · Chorus" };

/** The channel browser: the project's public channels (and the private ones you are in), by name or topic. */
export default async function ChannelsPage({ searchParams }: { searchParams: Promise<{ q?: string | string[] }> }) {
  const user = await requireCurrentUser();
  const { db } = await getRuntime();
  const { q } = await searchParams;
  const query = typeof q === "string" ? q.slice(0, 100) : "";
  const channels = await browseChannels(db.prisma, { userId: user.id, query });
  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto max-w-3xl space-y-4 p-4 sm:p-6">
        <h1 className="text-2xl font-bold">Channels</h1>
        <ChannelBrowser key={query} channels={channels} query={query} join={joinChannelAction} />
      </div>
    </div>
  );
}
