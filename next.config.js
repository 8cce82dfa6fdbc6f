/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded by Node itself, not bundled: tiktoken's wasm and PGlite's extension bundles are
  // resolved from their package folders at run time, and the server shares these module
  // instances with server.ts through globalThis.
  serverExternalPackages: ["tiktoken", "@electric-sql/pglite", "pglite-prisma-adapter", "pg", "redis"],
  poweredByHeader: false,
};

export default nextConfig;
