import type { Prisma } from "@/lib/db/open-database";

/** "Mia O'Member" → "mia.omember": what people type after @ to mention someone. */
export function handleFromName(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .trim()
    .replace(/\s+/g, ".")
    .replace(/[^a-z0-9_.-]/g, "")
    .replace(/^[._-]+|[._-]+$/g, "")
    .slice(0, 24);
  return base.length > 0 ? base : "user";
}

/** The name's handle, or the same with the lowest free number appended. */
export async function uniqueUserHandle(prisma: Prisma, name: string): Promise<string> {
  const base = handleFromName(name);
  const taken = new Set(
    (await prisma.user.findMany({ where: { handle: { startsWith: base } }, select: { handle: true } })).map((user) => user.handle),
  );
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix += 1) {
    if (!taken.has(`${base}${suffix}`)) return `${base}${suffix}`;
  }
}
