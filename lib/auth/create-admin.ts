import { APIError } from "better-auth/api";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { ensureDefaultProject } from "@/lib/projects/ensure-default-project";
import type { Auth } from "./create-auth";
import { signUpSchema } from "./credentials";

export interface CreateAdminInput {
  email?: string;
  name?: string;
  password?: string;
}

export interface CreatedAdmin {
  id: string;
  email: string;
  project: { name: string; created: boolean };
}

const fieldLabels: Record<string, string> = { email: "Email", name: "Name", password: "Password" };

/**
 * An admin account, as `npm run create-admin` makes the first one: the app's own sign-up (its
 * credential rules, its password hashing, joining the default project, created with #general on
 * an empty database), then the admin role and ownership of that project. An existing account is
 * never changed.
 */
export async function createAdmin({ prisma, auth }: { prisma: Prisma; auth: Auth }, input: CreateAdminInput): Promise<CreatedAdmin> {
  const parsed = signUpSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${fieldLabels[String(issue.path[0])] ?? "Input"}: ${issue.message}`);
    throw new AppError("bad_request", problems.join(" "));
  }
  const { email, name, password } = parsed.data;
  const existing = await prisma.user.findUnique({ where: { email }, select: { role: true } });
  if (existing) {
    throw new AppError("conflict", `An account with ${email} already exists (${existing.role === "admin" ? "already an admin" : `role ${existing.role}`}); nothing was changed. Use another email.`);
  }
  const project = await ensureDefaultProject(prisma);
  let userId: string;
  try {
    userId = (await auth.api.signUpEmail({ body: { email, name, password } })).user.id;
  } catch (error) {
    // The auth API's own refusals (an account created a moment ago, a rule) are already in words.
    if (error instanceof APIError) throw new AppError("bad_request", error.message);
    throw error;
  }
  await prisma.$transaction([
    prisma.user.update({ where: { id: userId }, data: { role: "admin" } }),
    prisma.membership.upsert({
      where: { projectId_userId: { projectId: project.id, userId } },
      create: { projectId: project.id, userId, role: "owner" },
      update: { role: "owner" },
    }),
  ]);
  return { id: userId, email, project: { name: project.name, created: project.created } };
}
