import { readEnv } from "@/lib/config/env";
import { databaseTarget } from "@/lib/db/database-target";
import { openDatabase } from "@/lib/db/open-database";

// `npm run db:migrate`: apply pending migrations to DATABASE_URL or the embedded database.
try {
  const db = await openDatabase(databaseTarget(readEnv()));
  const applied = await db.sql.query<{ migration_name: string }>(`SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name`);
  console.log(`Database is up to date (${applied.length} migrations applied, engine ${db.engine}).`);
  await db.close();
} catch (error) {
  console.error(`Migration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
