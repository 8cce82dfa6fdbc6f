import { spawn } from "node:child_process";

/**
 * Runs a client script of bench/ in a process of its own and returns the samples it prints (JSON).
 * Clients live apart from the server being measured, as browsers do: the embedded database
 * blocks the server's event loop while it works, which would otherwise delay the clients too.
 */
export async function runBenchClient<Samples = number[]>(script: string, options: unknown): Promise<Samples> {
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    env: { ...process.env, BENCH_CLIENT: JSON.stringify(options) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`${script} exited with ${code}`);
  return JSON.parse(output.trim().split("\n").at(-1)!) as Samples;
}
