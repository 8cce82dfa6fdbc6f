import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { measureAgents } from "./agents";
import { measureConversations } from "./conversations";
import { measureFiles } from "./files";
import { measureHandoffs } from "./handoffs";
import { measureLoad } from "./load";
import { measurePanels } from "./panels";
import { measureSearch } from "./search";
import { measureMemory, measureMemoryLarge } from "./memory";
import { meetsTarget, type BenchResult } from "./measure";

// `npm run bench`: every measure in one run on this machine; results to bench/results/latest.json.
process.env.LOG_LEVEL ??= "error";

const suites: [string, () => Promise<BenchResult[]>][] = [
  ["conversations", measureConversations],
  ["agents", measureAgents],
  ["memory", measureMemory],
  ["handoffs", measureHandoffs],
  ["panels", measurePanels],
  ["load", measureLoad],
];
// Too slow for every run: only when named (`npm run bench -- memory-large`).
const onRequest: [string, () => Promise<BenchResult[]>][] = [
  ["files", measureFiles],
  ["memory-large", measureMemoryLarge],
  ["search", measureSearch],
];

// `npm run bench -- agents` measures one suite only.
const only = process.argv.slice(2);
const results: BenchResult[] = [];
for (const [name, run] of [...suites, ...onRequest].filter(([name]) => (only.length === 0 ? suites.some(([suite]) => suite === name) : only.includes(name)))) {
  console.log(`measuring ${name}…`);
  results.push(...(await run()));
}

const file = path.join(process.cwd(), "bench", "results", "latest.json");
await mkdir(path.dirname(file), { recursive: true });
const measured = results.map(({ name, unit, value, baseline, ratio }) => ({ name, unit, value, baseline, ratio }));
// One suite run replaces its own entries and keeps the others' last results.
const earlier: typeof measured = only.length === 0 ? [] : await readFile(file, "utf8").then((text) => JSON.parse(text) as typeof measured, () => []);
const stored = [...earlier.filter((entry) => !measured.some((fresh) => fresh.name === entry.name)), ...measured];
await writeFile(file, `${JSON.stringify(stored, null, 2)}\n`);

console.table(
  results.map((entry) => ({
    name: entry.name,
    value: `${entry.value} ${entry.unit}`,
    baseline: entry.baseline,
    ratio: entry.ratio,
    target: entry.target ? Object.entries(entry.target).map(([kind, bound]) => `${kind} ${bound}`).join(", ") : "",
    met: meetsTarget(entry) === null ? "" : meetsTarget(entry) ? "yes" : "NO",
  })),
);
console.log(`written to ${path.relative(process.cwd(), file)}`);
process.exit(0);
