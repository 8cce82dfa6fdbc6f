import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/open-database";
import { loadDmmf, type DmmfField, type DmmfModel } from "../support/prisma-dmmf";
import { createTestDatabase } from "../support/test-database";

/**
 * Migrations are written by hand, so this proves they build what prisma/schema.prisma
 * describes: every model's table, every field's column (type and nullability), every unique
 * constraint, primary key, relation and enum value.
 */

const scalarTypes: Record<string, string> = {
  String: "text",
  Int: "integer",
  BigInt: "bigint",
  Float: "double precision",
  Boolean: "boolean",
  DateTime: "timestamp without time zone",
  Json: "jsonb",
  Decimal: "numeric",
  Bytes: "bytea",
};

/** Native types (`@db.…`) that change the column's type. */
const nativeTypes: Record<string, string> = { Json: "json" };

interface Column {
  table_name: string;
  column_name: string;
  data_type: string;
  udt_name: string;
  is_nullable: "YES" | "NO";
}

interface Constraint {
  table_name: string;
  kind: "p" | "u" | "f";
  columns: string[];
  foreign_table: string | null;
  foreign_columns: string[] | null;
}

describe("schema.prisma and the migrations agree", () => {
  let db: Database;
  let columns: Column[];
  let constraints: Constraint[];
  let enumValues: Map<string, string[]>;
  const { models, enums } = loadDmmf();

  beforeAll(async () => {
    db = await createTestDatabase();
    columns = await db.sql.query<Column>(
      `SELECT table_name, column_name, data_type, udt_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    // Unique indexes count as unique constraints: Prisma creates uniques as indexes.
    constraints = await db.sql.query<Constraint>(`
      SELECT t.relname AS table_name, 'p' AS kind,
             array(SELECT a.attname::text FROM unnest(i.indkey) k JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k) AS columns,
             NULL::text AS foreign_table, NULL::text[] AS foreign_columns
      FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = 'public' AND i.indisprimary
      UNION ALL
      SELECT t.relname, 'u',
             array(SELECT a.attname::text FROM unnest(i.indkey) k JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k),
             NULL::text, NULL::text[]
      FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = 'public' AND i.indisunique AND NOT i.indisprimary
      UNION ALL
      SELECT t.relname, 'f',
             array(SELECT a.attname::text FROM unnest(c.conkey) k JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k),
             ft.relname::text,
             array(SELECT a.attname::text FROM unnest(c.confkey) k JOIN pg_attribute a ON a.attrelid = ft.oid AND a.attnum = k)
      FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class ft ON ft.oid = c.confrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = 'public' AND c.contype = 'f'`);
    const enumRows = await db.sql.query<{ name: string; value: string }>(
      `SELECT t.typname AS name, e.enumlabel AS value FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid ORDER BY e.enumsortorder`,
    );
    enumValues = new Map();
    for (const row of enumRows) enumValues.set(row.name, [...(enumValues.get(row.name) ?? []), row.value]);
  });

  afterAll(() => db.close());

  const tableOf = (model: DmmfModel) => model.dbName ?? model.name;
  const columnOf = (field: DmmfField) => field.dbName ?? field.name;
  const modelByName = (name: string) => models.find((model) => model.name === name)!;
  const columnsOf = (model: DmmfModel, fieldNames: string[]) =>
    fieldNames.map((name) => columnOf(model.fields.find((field) => field.name === name)!));

  it.each(models.map((model) => [model.name, model]))("model %s has its columns", (_name, model) => {
    for (const field of model.fields.filter((candidate) => candidate.kind === "scalar" || candidate.kind === "enum")) {
      const column = columns.find((row) => row.table_name === tableOf(model) && row.column_name === columnOf(field));
      expect(column, `${tableOf(model)}.${columnOf(field)}`).toBeDefined();
      const expectedType = field.kind === "enum" ? field.type : (nativeTypes[field.nativeType?.[0] ?? ""] ?? scalarTypes[field.type]);
      const actualType = field.kind === "enum" ? column!.udt_name : column!.data_type;
      if (field.isList) expect(column!.data_type, `${field.name} is a list`).toBe("ARRAY");
      else expect(actualType, `${tableOf(model)}.${columnOf(field)} type`).toBe(expectedType);
      expect(column!.is_nullable, `${tableOf(model)}.${columnOf(field)} nullability`).toBe(field.isRequired ? "NO" : "YES");
    }
  });

  it.each(models.map((model) => [model.name, model]))("model %s has its primary key and unique constraints", (_name, model) => {
    const table = tableOf(model);
    const idFields = model.primaryKey?.fields ?? model.fields.filter((field) => (field as { isId?: boolean }).isId).map((field) => field.name);
    const keyed = (kind: "p" | "u") => constraints.filter((row) => row.table_name === table && row.kind === kind).map((row) => [...row.columns].sort().join(","));
    expect(keyed("p")).toEqual([columnsOf(model, idFields).sort().join(",")]);

    const singleUniques = model.fields.filter((field) => (field as { isUnique?: boolean }).isUnique).map((field) => [field.name]);
    for (const fields of [...model.uniqueFields, ...singleUniques]) {
      expect(keyed("u"), `${table} unique (${fields.join(", ")})`).toContain(columnsOf(model, fields).sort().join(","));
    }
  });

  it.each(models.map((model) => [model.name, model]))("model %s has its relations as foreign keys", (_name, model) => {
    for (const field of model.fields.filter((candidate) => candidate.kind === "object" && candidate.relationFromFields?.length)) {
      const target = modelByName(field.type);
      const foreignKey = constraints.find(
        (row) =>
          row.kind === "f" &&
          row.table_name === tableOf(model) &&
          row.columns.join(",") === columnsOf(model, field.relationFromFields!).join(",") &&
          row.foreign_table === tableOf(target) &&
          row.foreign_columns?.join(",") === columnsOf(target, field.relationToFields!).join(","),
      );
      expect(foreignKey, `${tableOf(model)}.${field.name} → ${tableOf(target)}`).toBeDefined();
    }
  });

  it("has every enum with its values in order", () => {
    for (const { name, values } of enums) {
      expect(enumValues.get(name), name).toEqual(values.map((value) => value.name));
    }
  });
});
