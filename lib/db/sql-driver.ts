import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";

/**
 * Raw SQL over either engine: for the migrator, the health check, exact vector search's scan and
 * the statements a turn waits on (raw-statements.ts). Everything else goes through Prisma.
 */
export interface SqlDriver {
  readonly engine: "pglite" | "postgres";
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a write; returns how many rows it changed. */
  execute(sql: string, params?: unknown[]): Promise<number>;
  /**
   * Hands each row to `onRow`; on PostgreSQL as it arrives, none kept: a scan of many rows read
   * once leaves no garbage to outlive it.
   */
  forEachRow<Row = Record<string, unknown>>(sql: string, params: unknown[], onRow: (row: Row) => void): Promise<void>;
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
    async execute(sql: string, params: unknown[] = []) {
      return (await db.query(sql, params)).affectedRows ?? 0;
    },
    async forEachRow<Row>(sql: string, params: unknown[], onRow: (row: Row) => void) {
      for (const row of (await db.query<Row>(sql, params)).rows) onRow(row);
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
    async execute(sql: string, params: unknown[] = []) {
      return (await pool.query(sql, params)).rowCount ?? 0;
    },
    async forEachRow<Row>(sql: string, params: unknown[], onRow: (row: Row) => void) {
      const client = await pool.connect();
      try {
        await new Promise<void>((resolve, reject) => {
          const query = new pg.Query<Row & pg.QueryResultRow>(sql, params);
          let failure: { error: unknown } | null = null;
          // Listening before the query is sent: pg keeps no rows when something listens for them.
          query.on("row", (row) => {
            if (failure) return;
            try {
              onRow(row);
            } catch (error) {
              failure = { error };
            }
          });
          query.on("error", reject);
          query.on("end", () => (failure ? reject(failure.error) : resolve()));
          client.query(query);
        });
        client.release();
      } catch (error) {
        // As pool.query does: a client whose query failed is closed, not reused.
        client.release(error instanceof Error ? error : true);
        throw error;
      }
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
