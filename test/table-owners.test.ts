import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * Each table has one module that writes it (insert, update, delete); every other part asks that
 * module, inside its own transaction where it needs one. Found by reading the production code of
 * server/ (tests and migrations aside): Kysely's insertInto/updateTable/deleteFrom and raw SQL.
 */
const OWNERS: Record<string, string> = {
  audit_log: "server/audit/log.ts",
  categories: "server/catalogue/seed.ts",
  mail_outbox: "server/mail/outbox.ts",
  order_line_refunds: "server/refunds/line-units.ts",
  orders: "server/orders/store.ts",
  payments: "server/payments/store.ts",
  product_images: "server/catalogue/uploaded-images.ts",
  products: "server/catalogue/products-table.ts",
  refunds: "server/refunds/store.ts",
  reservations: "server/stock/holds.ts",
  session_revocations: "server/auth/revocations.ts",
  settings: "server/db/settings.ts",
  user: "server/auth/staff.ts",
  verification: "server/auth/password-reset.ts",
};

const withoutComments = (source: string): string => source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");

const WRITES = [
  /\b(?:insertInto|updateTable|deleteFrom)\(\s*["'`]"?(\w+)"?(?:\s+as\s+\w+)?["'`]/g,
  /\b(?:insert\s+into|delete\s+from)\s+"?(\w+)"?/gi,
  /\bupdate\s+"?(\w+)"?(?:\s+as\s+\w+)?\s+set\b/gi,
];

/** The tables a source file writes. */
function tablesWritten(source: string): Set<string> {
  const code = withoutComments(source);
  const tables = new Set<string>();
  for (const pattern of WRITES) for (const match of code.matchAll(pattern)) tables.add(match[1]!.toLowerCase());
  return tables;
}

/** Which files write each table, from `files` (path → source). */
function writersOf(files: Record<string, string>): Map<string, string[]> {
  const writers = new Map<string, string[]>();
  for (const [file, source] of Object.entries(files)) {
    for (const table of tablesWritten(source)) writers.set(table, [...(writers.get(table) ?? []), file].sort());
  }
  return writers;
}

/** Every table written by a file other than its owner, or with no owner named: "table: files". */
function ownershipBroken(files: Record<string, string>, owners: Record<string, string>): string[] {
  const broken: string[] = [];
  for (const [table, writers] of writersOf(files)) {
    if (!owners[table] || writers.some((file) => file !== owners[table])) broken.push(`${table}: ${writers.join(", ")}`);
  }
  return broken.sort();
}

function productionSources(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const file = path.join(dir, entry).split(path.sep).join("/");
    if (!file.endsWith(".ts") || /\.test\.ts$/.test(file) || file.includes("/migrations/")) continue;
    files[file] = fs.readFileSync(file, "utf8");
  }
  return files;
}

describe("table owners", () => {
  it("each table is written from exactly one module", () => {
    const files = productionSources("server");
    expect(ownershipBroken(files, OWNERS)).toEqual([]);
    // Every owner named still writes its table (a stale list would let a new writer slip through).
    for (const [table, owner] of Object.entries(OWNERS)) expect(tablesWritten(files[owner] ?? ""), `${owner} writes ${table}`).toContain(table);
  });

  it("finds a second writer, in Kysely or in raw SQL, and a table no owner is named for", () => {
    const owner = 'await trx.updateTable("products").set({ stock: 1 }).execute(); // insertInto("orders") in a comment is not a write';
    expect(ownershipBroken({ "server/catalogue/products-table.ts": owner }, OWNERS)).toEqual([]);
    const kysely = 'await db.insertInto("products").values(row).execute();';
    expect(ownershipBroken({ "server/catalogue/products-table.ts": owner, "server/admin/x.ts": kysely }, OWNERS)).toEqual(["products: server/admin/x.ts, server/catalogue/products-table.ts"]);
    const raw = "await sql`update products as p set stock = p.stock - 1 where p.id = ${id}`.execute(trx);";
    expect(ownershipBroken({ "server/catalogue/products-table.ts": owner, "server/stock/x.ts": raw }, OWNERS)).toEqual(["products: server/catalogue/products-table.ts, server/stock/x.ts"]);
    expect(ownershipBroken({ "server/x.ts": 'sql`delete from "wishlists" where id = ${id}`' }, OWNERS)).toEqual(["wishlists: server/x.ts"]);
  });

  it("reads past comments and prose", () => {
    expect([...tablesWritten("/* insert into orders */ // delete from payments\nconst text = 'Please update your basket';")]).toEqual([]);
    expect([...tablesWritten('trx.deleteFrom("orders as o")')]).toEqual(["orders"]);
  });
});
