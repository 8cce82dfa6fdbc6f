import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";

/**
 * The few raw operations the migrator and the health check need, over either engine.
 * Everything else goes through Prisma.
 */
export interface SqlDriver {
  readonly engine: "pglite" | "postgres";
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs `work` in one transaction on one connection; multi-statement SQL is allowed in `exec`. */
  transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface SqlTransaction {
  exec(sql: string): Promise<void>;
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
}

export function pgliteDriver(db: PGlite): SqlDriver {
  return {
    engine: "pglite",
    async query<Row>(sql: string, params: unknown[] = []) {
      return (await db.query<Row>(sql, params)).rows;
    },
    transaction(work) {
      return db.transaction((tx) =>
        work({
          exec: async (sql) => {
            await tx.exec(sql);
          },
          query: async <Row>(sql: string, params: unknown[] = []) => (await tx.query<Row>(sql, params)).rows,
        }),
      );
    },
    close: () => db.close(),
  };
}

export function postgresDriver(pool: pg.Pool): SqlDriver {
  return {
    engine: "postgres",
    async query<Row>(sql: string, params: unknown[] = []) {
      return (await pool.query(sql, params)).rows as Row[];
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work({
          exec: async (sql) => {
            await client.query(sql);
          },
          query: async <Row>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Row[],
        });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
