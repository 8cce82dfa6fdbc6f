import { monitorEventLoopDelay } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { makeDocx, passwordProtectedDocx } from "@/test/support/make-docx";
import { makePdf, makePdfPages, textOperators } from "@/test/support/make-pdf";
import { makeZip, zipBomb } from "@/test/support/make-zip";
import { readEnv } from "@/lib/config/env";
import { extractionLimits, extractText as extractWithLimits } from "./extract-text";

const bytes = (text: string) => new TextEncoder().encode(text);
const configured = extractionLimits(readEnv({ NODE_ENV: "test" }));
const extractText = (name: string, content: Uint8Array, limits = configured) => extractWithLimits(name, content, limits);
const pages = (...texts: string[][]) => makePdfPages(texts.map((page) => ({ operators: textOperators(page) })));
// Lines of 40 characters: a longer one would run off the page, and pdf.js drops what is off it.
const lines = (count: number, char: string) => Array.from({ length: count }, () => char.repeat(40));

describe("extractText", () => {
  it("reads markdown and text as UTF-8, and the text layer of a PDF", async () => {
    expect(await extractText("Policy.md", bytes("# Leave\r\n\r\nAnnual leave is 25 days."))).toEqual({ text: "# Leave\n\nAnnual leave is 25 days.", mediaType: "text/markdown" });
    expect((await extractText("notes.TXT", bytes("plain résumé"))).text).toBe("plain résumé");
    const pdf = await extractText("HR Policy 2025.pdf", makePdf(["Annual leave entitlement is 25 days.", "Carry-over is 5 days."]));
    expect(pdf.mediaType).toBe("application/pdf");
    expect(pdf.text).toContain("Annual leave entitlement is 25 days.");
  });

  it("refuses empty, unknown, binary, non-UTF-8 and broken files with the reason", async () => {
    await expect(extractText("empty.txt", new Uint8Array())).rejects.toThrow("empty.txt is empty.");
    await expect(extractText("photo.png", bytes("x"))).rejects.toThrow(/^photo\.png: only Word \(\.docx\), PDF, Markdown \(\.md\), text \(\.txt\), web pages \(\.html\), CSV, TSV, JSON and source code/);
    await expect(extractText("disguised.txt", new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Uint8Array(64).fill(1)]))).rejects.toThrow("disguised.txt is not text: its bytes are application/x-elf.");
    await expect(extractText("control.md", new Uint8Array([0x61, 1, 2, 3, 0, 0, 0x62]))).rejects.toThrow(/looks like a binary file/);
    await expect(extractText("latin1.txt", new Uint8Array([0x63, 0x61, 0x66, 0xe9]))).rejects.toThrow(/not UTF-8/);
    await expect(extractText("fake.pdf", bytes("just text"))).rejects.toThrow(/not a PDF/);
    await expect(extractText("broken.pdf", bytes("%PDF-1.4 garbage"))).rejects.toThrow(/could not be read as a PDF/);
    await expect(extractText("blank.md", bytes("  \n\n "))).rejects.toThrow(/contains no text/);
  });

  it("refuses files over 10 MB", async () => {
    await expect(extractText("big.txt", new Uint8Array(10 * 1024 * 1024 + 1).fill(97))).rejects.toMatchObject({ code: "payload_too_large" });
  });

  it("reads a PDF page by page, pages a blank line apart", async () => {
    expect((await extractText("two pages.pdf", pages(["One.", "Uno."], ["Two."]))).text).toBe("One.\nUno.\n\nTwo.");
  });

  it("refuses more text than the character cap, or more pages than the page cap, saying what to do", async () => {
    const small = { ...configured, maxChars: 1_000, maxPages: 2 };
    expect((await extractText("exact.txt", bytes("abcd\r\n".repeat(200)), small)).text).toHaveLength(1_000);
    await expect(extractText("notes.txt", bytes("a".repeat(1_001)), small)).rejects.toThrow("notes.txt has more than 1,000 characters of text; split it and upload the parts.");
    await expect(extractText("notes.md", bytes("é".repeat(2_001)), small)).rejects.toMatchObject({ code: "payload_too_large" });
    await expect(extractText("handbook.pdf", pages(["One."], ["Two."], ["Three."]), small)).rejects.toThrow("handbook.pdf has more than 2 pages (3); split it and upload the parts.");
    await expect(extractText("long page.pdf", pages(lines(30, "x")), small)).rejects.toThrow("long page.pdf has more than 1,000 characters of text");
    await expect(extractText("two halves.pdf", pages(lines(15, "y"), lines(15, "z")), small)).rejects.toThrow("two halves.pdf has more than 1,000 characters of text");
  });

  it("refuses a PDF whose read passes its time or memory limit", async () => {
    const pdf = makePdf(["Annual leave entitlement is 25 days."]);
    await expect(extractText("slow.pdf", pdf, { ...configured, timeoutMs: 1 })).rejects.toThrow("slow.pdf took too long to read (over 0.001 seconds)");
    await expect(extractText("big.pdf", pdf, { ...configured, memoryMb: 4 })).rejects.toThrow("big.pdf is too large to read (it needs more than 4 MB of memory)");
  });
});

describe("extractText: the formats teams use", () => {
  const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

  it("reads a Word document's paragraphs, a blank line apart, runs joined", async () => {
    const docx = makeDocx(["Travel policy", ["Trains are booked in ", "standard class", " for trips under four hours."], "Receipts & invoices go to <finance>."]);
    expect(await extractText("Travel.docx", docx)).toEqual({
      text: "Travel policy\n\nTrains are booked in standard class for trips under four hours.\n\nReceipts & invoices go to <finance>.",
      mediaType: DOCX,
    });
  });

  it("refuses a Word document protected by a password, a zip bomb, and bytes that are not a Word document, before anything is inflated", async () => {
    await expect(extractText("Salaries.docx", passwordProtectedDocx())).rejects.toThrow(
      "Salaries.docx is protected by a password (or is an old-style Word file named .docx). Save a copy as .docx without a password and upload that.",
    );
    await expect(extractText("bomb.docx", zipBomb(50 * 1024 * 1024, "word/document.xml"))).rejects.toMatchObject({
      code: "payload_too_large",
      message: "bomb.docx holds word/document.xml, which would unpack to 1,028 times its packed size (at most 100): it looks like a zip bomb, so it was not opened.",
    });
    const many = makeDocx(["x"], { extra: Array.from({ length: 5_001 }, (_, index) => ({ name: `word/media/${index}.txt`, content: "x" })) });
    await expect(extractText("many.docx", many)).rejects.toThrow("many.docx holds 5,004 files, where a Word document may hold 5,000: it looks like a zip bomb, so it was not opened.");
    // Random bytes do not compress: 210 MB declared at a ratio of one.
    const huge = makeZip([{ name: "word/document.xml", content: "<w:document/>" }]);
    const view = new DataView(huge.buffer, huge.byteOffset, huge.byteLength);
    const central = huge.length - 22 - 46 - "word/document.xml".length;
    view.setUint32(central + 20, 210 * 1024 * 1024, true);
    view.setUint32(central + 24, 210 * 1024 * 1024, true);
    await expect(extractText("huge.docx", huge)).rejects.toThrow("huge.docx would unpack to 210 MB, more than 200 MB: it looks like a zip bomb, so it was not opened.");
    await expect(extractText("locked.docx", makeZip([{ name: "word/document.xml", content: "x", flags: 1 }]))).rejects.toThrow("locked.docx is protected by a password.");
    await expect(extractText("notes.docx", bytes("just some words"))).rejects.toThrow("notes.docx is not a Word document: a .docx is a zip archive, and this file is not one (or it is damaged).");
    await expect(extractText("photos.docx", makeZip([{ name: "photo.txt", content: "x" }]))).rejects.toThrow("photos.docx is a zip archive without word/document.xml, so it is not a Word document.");
    await expect(extractText("report.docx", makePdf(["x"]))).rejects.toThrow("report.docx is not a Word document: its bytes are a PDF (application/pdf). Rename it to what it is, or upload the right file.");
    await expect(extractText("report.pdf", makeDocx(["x"]))).rejects.toThrow(`report.pdf is not a PDF: its bytes are a Word document (${DOCX}).`);
    await expect(extractText("archive.txt", zipBomb(1_000))).rejects.toThrow("archive.txt is not text: its bytes are a zip archive (application/zip).");
  });

  it("refuses a zip bomb that lies about its sizes once its part inflates past what it declared", async () => {
    const liar = Buffer.from(makeDocx([], { extra: [{ name: "word/document.xml", content: Buffer.alloc(64 * 1024 * 1024, "a") }] }));
    const name = Buffer.from("word/document.xml");
    liar.writeUInt32LE(1_024, liar.lastIndexOf(name) - 46 + 24);
    liar.writeUInt32LE(1_024, liar.indexOf(name) - 30 + 22);
    await expect(extractText("liar.docx", liar)).rejects.toThrow("liar.docx is damaged: a part of it unpacks to another size than the archive declares (it may be a zip bomb).");
  });

  it("reads a web page as its reader sees it: no scripts, styles or other non-content, headings as written", async () => {
    const page = `<!doctype html><html><head><title>Ignored title</title><style>body { color: red }</style><script>var token = "secret-script";</script></head>
      <body><h1>On-call guide</h1><noscript>Enable JavaScript</noscript><p>Page the <a href="https://example.com/rota">primary</a> first.</p>
      <script>document.write("injected")</script><template><p>hidden template</p></template><img src="x.png" alt="diagram"><svg><text>chart</text></svg>
      <form><p>Escalate after 15 minutes.</p><input value="typed"><button>Send</button></form>
      <table><tr><th>Level</th><th>Who</th></tr><tr><td>1</td><td>Primary</td></tr></table></body></html>`;
    const { text, mediaType } = await extractText("On-call.html", bytes(page));
    expect(mediaType).toBe("text/html");
    expect(text).toContain("On-call guide\n\nPage the primary first.\n\nEscalate after 15 minutes.");
    expect(text).toMatch(/Level +Who\n1 +Primary/);
    for (const hidden of ["secret-script", "color: red", "injected", "Enable JavaScript", "hidden template", "diagram", "chart", "typed", "Send", "example.com", "Ignored title"]) expect(text).not.toContain(hidden);
    await expect(extractText("empty.htm", bytes("<html><head><style>p {}</style></head><body><script>x()</script></body></html>"))).rejects.toThrow("empty.htm contains no text (only markup, scripts or styles?).");
    await expect(extractText("latin1.html", new Uint8Array([0x3c, 0x70, 0x3e, 0x63, 0x61, 0x66, 0xe9]))).rejects.toThrow(/not UTF-8/);
  });

  it("keeps a CSV's rows (and a TSV's) readable: one line per row, each value named by its column", async () => {
    const csv = 'Name,Team,Notes\r\nAda Lovelace,"Platform, core","Says ""ship it""\r\nevery Friday"\r\nGrace Hopper,,Compilers\r\n';
    expect(await extractText("people.csv", bytes(csv))).toEqual({
      text: 'Name: Ada Lovelace; Team: Platform, core; Notes: Says "ship it" every Friday\n\nName: Grace Hopper; Notes: Compilers',
      mediaType: "text/csv",
    });
    expect((await extractText("people.tsv", bytes("Name\tRoom\nAda\t4.01\n"))).text).toBe("Name: Ada; Room: 4.01");
    expect((await extractText("columns.csv", bytes("Name,Team\n"))).text).toBe("Columns: Name; Team");
    // The rows' text is capped as any text: naming each value makes it longer than the file.
    const rows = `a,b\n${"1,2\n".repeat(200)}`;
    expect(rows.length).toBeLessThan(1_000);
    await expect(extractText("rows.csv", bytes(rows), { ...configured, maxChars: 1_000 })).rejects.toThrow("rows.csv has more than 1,000 characters of text");
  });

  it("keeps JSON readable as records, and refuses invalid JSON with where it goes wrong", async () => {
    const json = JSON.stringify({ title: "Price list", currency: "EUR", items: [{ sku: "E-4471", name: "Router", price: 129.5, tags: ["network", "office"] }, { sku: "E-4472", name: "Switch", size: { ports: 24 } }] });
    expect(await extractText("prices.json", bytes(json))).toEqual({
      text: "title: Price list\ncurrency: EUR\n\nitems[0]\nsku: E-4471\nname: Router\nprice: 129.5\ntags: network, office\n\nitems[1]\nsku: E-4472\nname: Switch\nsize.ports: 24",
      mediaType: "application/json",
    });
    expect((await extractText("list.json", bytes('[{"name":"Ada","active":true},{"name":"Grace","manager":null}]'))).text).toBe("name: Ada\nactive: true\n\nname: Grace\nmanager: null");
    await expect(extractText("broken.json", bytes('{\n  "name": "Ada",\n  "team": }\n'))).rejects.toThrow('broken.json is not valid JSON: line 3, column 11: unexpected "}". Fix it and upload it again.');
    await expect(extractText("cut.json", bytes('[{"name": "Ada"'))).rejects.toThrow("cut.json is not valid JSON: it ends before its last value is complete.");
    await expect(extractText("deep.json", bytes(`${"[".repeat(200)}1${"]".repeat(200)}`))).rejects.toThrow("deep.json nests values more than 100 levels deep");
    await expect(extractText("empty.json", bytes("[]"))).rejects.toThrow("empty.json contains no text.");
  });

  it("turns a 4 MB CSV and a 3 MB JSON file into records off the event loop (p99 lag < 100 ms)", async () => {
    const csv = `Id,Name,Team,Notes\n${Array.from({ length: 50_000 }, (_, i) => `${i},Person ${i},"Platform, core",Joined in week ${i % 52} and works on the release train`).join("\n")}`;
    const json = JSON.stringify(Array.from({ length: 40_000 }, (_, i) => ({ id: i, name: `Person ${i}`, team: { name: "Platform", floor: 4 }, tags: ["release", "on-call"] })));
    expect(csv.length).toBeGreaterThan(3_500_000);
    expect(json.length).toBeGreaterThan(3_000_000);
    // The histogram records a stall only when its timer next fires: a tick before and after the reads.
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    await settle();
    const [rows, records] = await Promise.all([extractText("staff.csv", bytes(csv)), extractText("staff.json", bytes(json))]);
    await settle();
    lag.disable();
    expect(rows.text).toMatch(/^Id: 0; Name: Person 0; Team: Platform, core; Notes: Joined in week 0 and works on the release train\n\nId: 1; /);
    expect(records.text).toMatch(/^id: 0\nname: Person 0\nteam\.name: Platform\nteam\.floor: 4\ntags: release, on-call\n\nid: 1\n/);
    expect(lag.percentile(99) / 1e6, `event-loop lag p99 (max ${(lag.max / 1e6).toFixed(0)} ms)`).toBeLessThan(100);
  }, 30_000);

  it("keeps source code and configuration as the text it is", async () => {
    const python = 'def greet(name):\r\n    return f"Hello, {name}"\r\n';
    expect(await extractText("greet.py", bytes(python))).toEqual({ text: 'def greet(name):\n    return f"Hello, {name}"\n', mediaType: "text/x-python" });
    expect((await extractText("App.tsx", bytes("export const App = () => <main />;"))).mediaType).toBe("text/x-typescript");
    expect((await extractText("deploy.yml", bytes("on: push\n"))).mediaType).toBe("application/yaml");
    expect((await extractText("pom.xml", bytes('<?xml version="1.0"?>\n<project/>'))).text).toBe('<?xml version="1.0"?>\n<project/>');
  });
});
