import path from "node:path";
import type { Auth } from "@/lib/auth/create-auth";
import type { Prisma } from "@/lib/db/open-database";
import { log } from "@/lib/log/logger";
import { DEMO_PASSWORD, demoAgents, demoChannels, demoNotesServer, demoOrchestrator, demoProject, demoToolAgent, demoUsers } from "./demo-data";

export interface SeedDemoOptions {
  prisma: Prisma;
  auth: Auth;
  /**
   * The data directory as configured (DATA_DIR, relative to the app's working directory like
   * the server's script), where the demo notes server keeps its notes. Without it the server
   * uses its default, `.data/demo-notes.json`.
   */
  dataDir?: string;
}

/**
 * Creates the demo project, users, agents, channels and notes server. Idempotent: an existing
 * demo project means the seed has run, and nothing is written.
 */
export async function seedDemo({ prisma, auth, dataDir }: SeedDemoOptions): Promise<{ seeded: boolean }> {
  if (await prisma.project.findUnique({ where: { slug: demoProject.slug } })) return { seeded: false };

  const project = await prisma.project.create({ data: demoProject });
  const agents = await Promise.all(
    demoAgents.map((agent) =>
      prisma.agent.create({ data: { ...agent, projectId: project.id, provider: "offline", model: "offline" } }),
    ),
  );
  const idOf = (handle: string) => agents.find((agent) => agent.handle === handle)!.id;
  await prisma.agent.update({
    where: { id: idOf(demoOrchestrator.handle) },
    data: {
      handoffSettings: {
        orchestrator: true,
        maxDepth: 3,
        specialists: demoOrchestrator.specialists.map(({ handle, mode }) => ({ agentId: idOf(handle), mode, recentN: 10, forkHistory: 5 })),
        routes: demoOrchestrator.routes.map(({ pattern, handle }) => ({ pattern, agentId: idOf(handle) })),
      },
    },
  });
  await seedNotesServer(prisma, { projectId: project.id, agentId: idOf(demoToolAgent.handle), dataDir });
  for (const channel of demoChannels) {
    const conversation = await prisma.conversation.create({
      data: {
        projectId: project.id,
        type: "group",
        key: "global",
        scope: `name:${channel.name}`,
        title: channel.title,
        lastSeq: 1,
        participants: { create: agents.map((agent) => ({ agentId: agent.id })) },
      },
    });
    await prisma.message.create({
      data: { conversationId: conversation.id, seq: 1, role: "system", content: channel.welcome },
    });
  }
  // Users last: sign-up joins each one to the project and its channels (see joinDefaultProject).
  for (const user of demoUsers) {
    const created = await auth.api.signUpEmail({ body: { email: user.email, password: DEMO_PASSWORD, name: user.name } });
    await prisma.user.update({ where: { id: created.user.id }, data: { role: user.role } });
    if (user.role === "admin") {
      await prisma.membership.update({
        where: { projectId_userId: { projectId: project.id, userId: created.user.id } },
        data: { role: "owner" },
      });
    }
  }
  log.info("demo data seeded", { project: project.slug, users: demoUsers.length, agents: agents.length });
  return { seeded: true };
}

/**
 * The demo notes server and the demo agent's tools on it. Stored with no environment: sealing
 * one takes the running server's key, which the seed is not given (and `npm run db:seed` lacks
 * unless ENCRYPTION_KEY is set), so the notes file goes in the arguments: a path, no secret.
 */
async function seedNotesServer(prisma: Prisma, { projectId, agentId, dataDir }: { projectId: string; agentId: string; dataDir: string | undefined }): Promise<void> {
  const notesFileArgs = dataDir === undefined ? [] : ["--notes-file", path.join(dataDir, demoNotesServer.notesFile)];
  const server = await prisma.mcpServer.create({
    data: { projectId, name: demoNotesServer.name, transport: "stdio", command: demoNotesServer.command, args: [demoNotesServer.script, ...notesFileArgs] },
  });
  await prisma.agentTool.createMany({ data: demoToolAgent.tools.map((tool) => ({ ...tool, agentId, serverId: server.id })) });
}
