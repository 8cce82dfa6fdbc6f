import { defineConfig } from "prisma/config";

// Prisma's CLI downloads a schema-engine binary before every command, even `generate`, which
// needs no engine at all. This machine has no internet, so point it at any existing file; we
// never run `prisma migrate` (our own migrator in lib/db/migrator.ts applies migrations).
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= "/bin/true";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
