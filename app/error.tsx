"use client";

export default function ErrorBoundary({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-3 p-8 text-center" role="alert">
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="text-muted">
        This part of Chorus failed to load. Your messages are safe.
        {error.digest && <span className="block text-xs">Reference: {error.digest}</span>}
      </p>
      <button type="button" onClick={reset} className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700">
        Try again
      </button>
    </main>
  );
}
