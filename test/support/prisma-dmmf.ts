import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export interface DmmfField {
  name: string;
  kind: "scalar" | "object" | "enum" | "unsupported";
  type: string;
  isList: boolean;
  isRequired: boolean;
  dbName?: string | null;
  /** A native type such as `@db.Json`: [name, arguments]. */
  nativeType?: [string, string[]] | null;
  relationFromFields?: string[];
  relationToFields?: string[];
}

export interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
  primaryKey: { fields: string[] } | null;
  uniqueFields: string[][];
}

/** The schema's full DMMF, from Prisma's own schema engine (WebAssembly, offline). */
export function loadDmmf(): { models: DmmfModel[]; enums: { name: string; values: { name: string }[] }[] } {
  const require = createRequire(import.meta.url);
  const wasm = require("@prisma/prisma-schema-wasm") as { get_dmmf(params: string): string };
  const schemaPath = path.join(process.cwd(), "prisma", "schema.prisma");
  const schema = readFileSync(schemaPath, "utf8");
  return JSON.parse(wasm.get_dmmf(JSON.stringify({ prismaSchema: [["schema.prisma", schema]] }))).datamodel;
}
