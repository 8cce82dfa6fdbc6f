import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import type { JobTable } from "@/lib/jobs/job-table";

/** A running panel is a leased job: the coordinator's attempt fences every write of the panel. */
export const panelTable: JobTable = {
  name: "panels",
  kind: "panel",
  waiting: sql`"status" = 'running' AND "leaseUntil" IS NULL`,
  active: sql`"status" = 'running'`,
  columns: sql`"id", "attempt", "failures", "lastError"`,
};
