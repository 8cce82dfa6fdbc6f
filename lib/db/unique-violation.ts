/**
 * A unique-constraint violation (a concurrent writer got there first): Prisma's P2002 for model
 * queries, or PostgreSQL's 23505 inside the error of a raw query.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  if ((error as { code?: unknown }).code === "P2002") return true;
  return error instanceof Error && /\b23505\b|duplicate key value violates unique constraint/.test(error.message);
}
