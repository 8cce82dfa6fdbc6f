import { makeZip, type ZipFile } from "./make-zip";

const escape = (text: string) => text.replace(/[<>&"]/g, (char) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[char]!);

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;

const RELATIONSHIPS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

/** word/document.xml with one paragraph per entry; a paragraph of several strings is written as that many runs (bold every other one). */
export function documentXml(paragraphs: (string | string[])[]): string {
  const run = (text: string, index: number) => `<w:r>${index % 2 === 1 ? "<w:rPr><w:b/></w:rPr>" : ""}<w:t xml:space="preserve">${escape(text)}</w:t></w:r>`;
  const body = paragraphs.map((paragraph) => `<w:p>${(Array.isArray(paragraph) ? paragraph : [paragraph]).map(run).join("")}</w:p>`).join("");
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`;
}

/**
 * A real Word document (.docx): the three parts Word and mammoth need, zipped. Built in the test,
 * so no binary fixture is committed; `extra` adds parts (or, with `withoutDocument`, leaves the text out).
 */
export function makeDocx(paragraphs: (string | string[])[], { extra = [], withoutDocument = false }: { extra?: ZipFile[]; withoutDocument?: boolean } = {}): Uint8Array {
  const parts: ZipFile[] = [
    { name: "[Content_Types].xml", content: CONTENT_TYPES },
    { name: "_rels/.rels", content: RELATIONSHIPS },
    ...(withoutDocument ? [] : [{ name: "word/document.xml", content: documentXml(paragraphs) }]),
    ...extra,
  ];
  return makeZip(parts);
}

/** The first bytes of an OLE compound file, as Word writes a document protected by a password, then filler. */
export function passwordProtectedDocx(): Uint8Array {
  return Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(4_088, 0xff)]);
}
