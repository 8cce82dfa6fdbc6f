import { mkdirSync, accessSync, constants } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "@/lib/generated/prisma/client";
import type { TransactionClient } from "@/lib/generated/prisma/internal/prismaNamespace";
import { migrate } from "./migrator";
import { routeRawStatements } from "./raw-statements";
import { pgliteDriver, postgresDriver, type SqlDriver } from "./sql-driver";

export type Prisma = InstanceType<typeof PrismaClient>;
/** Inside `prisma.$transaction(async (tx) => …)`; functions that take it also accept the client. */
export type Transaction = TransactionClient;

export type DatabaseTarget =
  /** dataDir null: in memory. loadDataDir: start from a dumped template (tests). */
  | { engine: "pglite"; dataDir: string | null; loadDataDir?: Blob }
  | { engine: "postgres"; url: string };

export interface Database {
  prisma: Prisma;
  sql: SqlDriver;
  engine: DatabaseTarget["engine"];
  /** The PGlite instance, for tests that dump it as a template. */
  pglite?: PGlite;
  close(): Promise<void>;
}

/** A start-up failure explained in one line: what failed and how to fix it. */
export class DatabaseStartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatabaseStartupError";
  }
}

export interface OpenOptions {
  /** Apply pending migrations (default true). */
  migrate?: boolean;
  /** Called with every SQL statement Prisma or raw-statements.ts sends: tests count statements with it. */
  onQuery?: (sql: string) => void;
}

export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  const database = target.engine === "pglite" ? await openPglite(target, options) : await openPostgres(target.url, options);
  if (options.migrate ?? true) {
    try {
      await migrate(database.sql);
    } catch (error) {
      await database.close().catch(() => undefined);
      throw error;
    }
  }
  return database;
}

function createPrisma(adapter: NonNullable<ConstructorParameters<typeof PrismaClient>[0]["adapter"]>, { onQuery }: OpenOptions): Prisma {
  if (!onQuery) return new PrismaClient({ adapter });
  const prisma = new PrismaClient({ adapter, log: [{ emit: "event", level: "query" }] });
  prisma.$on("query", (event) => onQuery(event.query));
  return prisma as unknown as Prisma;
}

async function openPglite(target: Extract<DatabaseTarget, { engine: "pglite" }>, options: OpenOptions): Promise<Database> {
  if (target.dataDir) ensureWritableDirectory(target.dataDir);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({
      ...(target.dataDir ? { dataDir: target.dataDir } : {}),
      ...(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}),
      extensions: { vector },
    });
    await pglite.query("SELECT 1");
  } catch (error) {
    throw new DatabaseStartupError(
      `The embedded database in ${target.dataDir ?? "memory"} could not be opened (${describe(error)}). ` +
        "It may be corrupt or from another PGlite version: move the folder away to start fresh, or set DATA_DIR to another folder.",
    );
  }
  const prisma = createPrisma(new PrismaPGlite(pglite), options);
  const driver = pgliteDriver(pglite);
  routeRawStatements(prisma, { driver, onQuery: options.onQuery });
  return {
    prisma,
    sql: driver,
    engine: "pglite",
    pglite,
    async close() {
      await prisma.$disconnect();
      if (!pglite.closed) await pglite.close();
    },
  };
}

function ensureWritableDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.R_OK | constants.W_OK);
  } catch (error) {
    throw new DatabaseStartupError(
      `The data directory ${dir} is not readable and writable (${describe(error)}). Fix its permissions or set DATA_DIR to another folder.`,
    );
  }
}

async function openPostgres(url: string, options: OpenOptions): Promise<Database> {
  // pgvector's filtered HNSW scans keep going until k rows pass the filter (vector-store.ts). A
  // session setting, so no ALTER DATABASE (owner rights) is needed; pg-pool awaits onConnect before
  // the client's first query. Without pgvector it is an unused placeholder, which PostgreSQL accepts.
  const onConnect = (client: pg.ClientBase) => client.query("SET hnsw.iterative_scan = strict_order").then(() => undefined, () => undefined);
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000, onConnect });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on("error", () => undefined);
  try {
    await pool.query("SELECT 1");
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseStartupError(
      `PostgreSQL at ${redact(url)} is unreachable (${describe(error)}). Check DATABASE_URL and that the server is running, or unset DATABASE_URL to use the embedded database.`,
    );
  }
  const prisma = createPrisma(new PrismaPg(pool), options);
  const driver = postgresDriver(pool);
  routeRawStatements(prisma, { driver, onQuery: options.onQuery });
  return {
    prisma,
    sql: driver,
    engine: "postgres",
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: string }).code;
    return code && !error.message.includes(code) ? `${code}: ${error.message}` : error.message || error.name;
  }
  return String(error);
}

/** Never print a password from a connection string. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "the configured URL";
  }
}
