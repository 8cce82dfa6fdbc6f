import Link from "next/link";

/** Rendered with status 403 by forbidden(): admin pages for members and debug users. */
export default function Forbidden() {
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-3 p-8 text-center">
      <p className="text-sm font-semibold text-danger">403</p>
      <h1 className="text-2xl font-bold">Forbidden</h1>
      <p className="text-muted-strong">Only admins can configure agents. Ask an admin of your project.</p>
      <Link href="/" className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
        Back to Chorus
      </Link>
    </main>
  );
}
