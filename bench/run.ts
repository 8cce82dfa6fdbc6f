import { mkdir, readFile, writeFile } from "node:fs/promises";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { measureAgents } from "./agents";
import { measureBrowser } from "./browser";
import { measureConversations } from "./conversations";
import { measureFiles } from "./files";
import { measureHandoffs } from "./handoffs";
import { measureKnowledge } from "./knowledge";
import { measureLoad } from "./load";
import { measurePanels } from "./panels";
import { measureSearch } from "./search";
import { measureTools } from "./tools";
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
  ["tools", measureTools],
  ["load", measureLoad],
  ["browser", measureBrowser],
];
// Too slow for every run: only when named (`npm run bench -- memory-large`).
const onRequest: [string, () => Promise<BenchResult[]>][] = [
  ["files", measureFiles],
  ["memory-large", measureMemoryLarge],
  ["search", measureSearch],
  ["knowledge", measureKnowledge],
];

// `npm run bench -- agents` measures one suite only; `--compare <file>` prints each figure's change against an earlier results file.
const args = process.argv.slice(2);
const compareAt = args.indexOf("--compare");
const compareWith = compareAt >= 0 ? args[compareAt + 1] : undefined;
if (compareAt >= 0 && !compareWith) throw new Error("--compare needs an earlier results file, e.g. --compare bench/results/before.json");
const only = args.filter((_, index) => compareAt < 0 || (index !== compareAt && index !== compareAt + 1));
const results: BenchResult[] = [];
// A figure means little on a busy machine: the load is printed before and after.
const load = () => `load average ${loadavg().map((value) => value.toFixed(1)).join(" ")} on ${availableParallelism()} cores`;
const loadBefore = load();
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

const rows = results.map((entry) => ({
  name: entry.name,
  value: `${entry.value} ${entry.unit}`,
  baseline: entry.baseline,
  ratio: entry.ratio,
  target: entry.target ? Object.entries(entry.target).map(([kind, bound]) => `${kind} ${bound}`).join(", ") : "",
  met: meetsTarget(entry) === null ? "" : meetsTarget(entry) ? "yes" : "NO",
}));
console.table(rows);
// The same table in Markdown, for the README's performance section.
const cell = (value: unknown) => (value === null || value === undefined ? "" : String(value).replaceAll("|", "\\|"));
const markdown = [
  `${new Date().toISOString().slice(0, 10)}, ${loadBefore} before and ${load()} after.`,
  "",
  "| Figure | Measured | Baseline (same run) | Ratio | Target | Met |",
  "|---|---|---|---|---|---|",
  ...rows.map((row) => `| ${[row.name, row.value, row.baseline, row.ratio, row.target, row.met].map(cell).join(" | ")} |`),
].join("\n");
const markdownFile = file.replace(/\.json$/, ".md");
await writeFile(markdownFile, `${markdown}\n`);
console.log(`${loadBefore} before, ${load()} after`);
console.log(`written to ${path.relative(process.cwd(), file)} and ${path.relative(process.cwd(), markdownFile)}`);
if (compareWith) console.table(await compare(measured, compareWith));
process.exit(0);

/** Each figure of this run beside the same figure in an earlier results file, with the change. */
async function compare(now: { name: string; unit: string; value: number; ratio: number | null }[], earlierFile: string) {
  const before = new Map((JSON.parse(await readFile(earlierFile, "utf8")) as typeof now).map((entry) => [entry.name, entry]));
  return now.map(({ name, unit, value, ratio }) => {
    const old = before.get(name);
    const change = old && old.value !== 0 ? `${(((value - old.value) / old.value) * 100).toFixed(1)} %` : "";
    return { name, before: old ? `${old.value} ${unit}` : "(new)", now: `${value} ${unit}`, change, "ratio before": old?.ratio ?? "", "ratio now": ratio ?? "" };
  });
}
