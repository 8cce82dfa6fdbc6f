import { createInterface } from "node:readline/promises";
import { Writable } from "node:stream";
import { parseArgs } from "node:util";
import { readEnv } from "@/lib/config/env";
import { databaseTarget } from "@/lib/db/database-target";
import { openDatabase } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";

// `npm run create-admin -- --email … --name …`: an admin account (the first one of a production
// installation). The password comes from CHORUS_ADMIN_PASSWORD or is asked for, never from a flag,
// which would stay in the shell's history and the process list.

/** A mistake in how the command was called: its message is all the person needs. */
class ArgumentError extends Error {}

const usage = 'Usage: CHORUS_ADMIN_PASSWORD=… npm run create-admin -- --email you@example.com --name "Your Name" (without CHORUS_ADMIN_PASSWORD, the password is asked for).';

try {
  const { email, name } = readArguments();
  const password = process.env.CHORUS_ADMIN_PASSWORD || (await askPassword());
  const env = readEnv();
  const db = await openDatabase(databaseTarget(env));
  try {
    // Imported lazily, as in scripts/seed.ts: the auth module reaches next/headers.
    const { createRuntimeFor } = await import("@/lib/runtime/runtime");
    const { createAdmin } = await import("@/lib/auth/create-admin");
    const admin = await createAdmin({ prisma: db.prisma, auth: createRuntimeFor(db, env).auth }, { email, name, password });
    const where = admin.project.created ? `the new project "${admin.project.name}" (with #general)` : `the project "${admin.project.name}"`;
    console.log(`Admin ${admin.email} created, owner of ${where}. Sign in with that email and password.`);
  } finally {
    await db.close();
  }
} catch (error) {
  console.error(error instanceof AppError || error instanceof ArgumentError ? error.message : `create-admin failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

function readArguments(): { email?: string; name?: string } {
  if (process.argv.some((argument) => argument.startsWith("--password"))) {
    throw new ArgumentError(`The password is never a flag: set CHORUS_ADMIN_PASSWORD or type it when asked. ${usage}`);
  }
  try {
    return parseArgs({ options: { email: { type: "string" }, name: { type: "string" } } }).values;
  } catch (error) {
    throw new ArgumentError(`${error instanceof Error ? error.message : String(error)}. ${usage}`);
  }
}

/** From the terminal without echo (twice, to catch a typo), or the first line of piped input. */
async function askPassword(): Promise<string> {
  const typed = process.stdin.isTTY;
  // What is typed goes nowhere; the questions are written to the terminal directly.
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const input = createInterface({ input: process.stdin, output: silent, terminal: typed });
  const ended = new Promise<never>((_, reject) => input.once("close", () => reject(new ArgumentError(`No password given. ${usage}`))));
  const ask = async (question: string) => {
    if (typed) process.stdout.write(question);
    const answer = await Promise.race([input.question(""), ended]);
    if (typed) process.stdout.write("\n");
    return answer;
  };
  try {
    const password = await ask("Password for the new admin: ");
    if (typed && (await ask("Type it again: ")) !== password) throw new ArgumentError("The two passwords differ; nothing was changed.");
    return password;
  } finally {
    input.close();
  }
}
