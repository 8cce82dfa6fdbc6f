import Link from "next/link";

export default function NotFound() {
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-3 p-8 text-center">
      <p className="text-sm font-semibold text-link">404</p>
      <h1 className="text-2xl font-bold">Nothing here</h1>
      <p className="text-muted">This page does not exist, or you are not allowed to see it.</p>
      <Link href="/" className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
        Back to Chorus
      </Link>
    </main>
  );
}
