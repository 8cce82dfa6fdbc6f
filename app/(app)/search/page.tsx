import type { Metadata } from "next";
import { formFromUrl } from "@/components/search/search-form";
import { SearchView } from "@/components/search/search-view";
import { listConversations } from "@/lib/conversations/list-conversations";
import { getCurrentDirectory } from "@/lib/projects/current-directory";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";

export const metadata: Metadata = { title: "Search · Chorus" };

/** Message search; the URL holds the search (`?q=deploy&conversation=…`), so it can be shared and returned to. */
export default async function SearchPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireCurrentUser();
  const { db } = await getRuntime();
  const params = await searchParams;
  const [conversations, directory] = await Promise.all([listConversations(db.prisma, { userId: user.id }), getCurrentDirectory()]);
  const initialForm = formFromUrl((name) => {
    const value = params[name];
    return typeof value === "string" ? value : undefined;
  });
  return <SearchView userId={user.id} initialForm={initialForm} initialConversations={conversations} initialDirectory={directory} />;
}
