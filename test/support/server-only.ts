// Vitest stands in for Next's server bundle: modules marked server-only load as they would there.
export {};
