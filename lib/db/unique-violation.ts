/** Prisma's code for a unique-constraint violation: a concurrent writer got there first. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}
