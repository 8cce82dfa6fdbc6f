import Link from "next/link";

/** What members and debug users see instead of an admin page; the admin actions refuse them too. */
export function Forbidden() {
  return (
    <div className="flex h-full flex-col items-center justify-center gap-3 p-8 text-center">
      <p className="text-sm font-semibold text-red-600">403</p>
      <h1 className="text-2xl font-bold">Forbidden</h1>
      <p className="text-slate-600 dark:text-slate-400">Only admins can configure agents. Ask an admin of your project.</p>
      <Link href="/" className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
        Back to Chorus
      </Link>
    </div>
  );
}
