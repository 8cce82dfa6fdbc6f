import { readEnv } from "@/lib/config/env";
import { databaseTarget } from "@/lib/db/database-target";
import { openDatabase } from "@/lib/db/open-database";
import { seedDemo } from "@/lib/seed/seed-demo";

// `npm run db:seed`: the demo project, users and agents (idempotent). Imports the runtime
// lazily because the auth module reaches next/headers.
try {
  const env = readEnv();
  const db = await openDatabase(databaseTarget(env));
  const { createRuntimeFor } = await import("@/lib/runtime/runtime");
  const runtime = createRuntimeFor(db, env);
  const { seeded } = await seedDemo({ prisma: db.prisma, auth: runtime.auth });
  console.log(seeded ? "Demo data created. Sign in as member@chorus.local / chorus-demo." : "Demo data already present; nothing changed.");
  await db.close();
} catch (error) {
  console.error(`Seeding failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
