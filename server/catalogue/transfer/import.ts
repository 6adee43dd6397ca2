// Loading a catalogue from a file: every row is checked first (nothing is written while any row is
// bad), then all of them are written in one transaction with one audit entry and one
// catalogue-changed event. The same service for the command line and the back office.

import type { Readable } from "node:stream";
import { type Kysely, type Selectable, sql, type Transaction } from "kysely";
import { type Actor, appendAudit } from "../../audit/log.ts";
import type { Engine } from "../../db/database.ts";
import type { ProductsTable, Schema } from "../../db/schema.ts";
import { inTransaction } from "../../stock/transaction.ts";
import type { CatalogueEvents } from "../events.ts";
import { addProducts, type ProductValues, upsertProducts } from "../products-table.ts";
import { addCategories } from "../seed.ts";
import { checkFields, fieldName, type Problem, type ProductRow, type RawRow } from "./fields.ts";
import { type Format, readRows, UnreadableFile } from "./parse.ts";
import { Spool } from "./spool.ts";

export interface ImportDeps {
  db: Kysely<Schema>;
  engine: Engine;
  events: Pick<CatalogueEvents, "publish">;
  now?: () => number;
}

export interface ImportCounts {
  added: number;
  updated: number;
  unchanged: number;
}

/** The counts of a loaded file, or its problems: the first MAX_PROBLEMS, and how many more there were (`unlisted`). */
export type ImportOutcome = ({ ok: true } & ImportCounts) | { ok: false; problems: Problem[]; unlisted: number };

/** Rows checked so far, then rows written out of all. */
export type ImportProgress = { stage: "checked"; rows: number } | { stage: "written"; rows: number; of: number };

export const MAX_PROBLEMS = 1_000;
/** An event names the products changed up to this many; past it, `ids: null` (every instance reads the catalogue again). */
export const NAMED_CHANGES = 100;
const BATCH = 500;
const PROGRESS_EVERY = 1_000;

/** What checking every row found: nothing wrong, and what writing needs to know. */
interface Checked {
  ok: true;
  rows: number;
  categories: Set<string>;
  maxId: number;
}

/**
 * Loads a catalogue file (`format` by its extension) from `source`: products with an id are
 * added or updated by it, those without one added under new ids; a product whose fields are as the
 * file has them is left alone (unchanged). Unknown categories are created. `actor` is recorded in
 * the one audit entry (`products.import`, with the counts).
 */
export async function importProducts(deps: ImportDeps, source: Readable, format: Format, actor: Actor, onProgress?: (progress: ImportProgress) => void): Promise<ImportOutcome> {
  const spool = await Spool.create();
  try {
    const checked = await checkAll(source, format, spool, onProgress);
    if (!checked.ok) return checked;
    const counts = await writeAll(deps, spool, checked, actor, onProgress);
    // What autovacuum would do some time later, now: after thousands of new rows the planner's
    // statistics and the visibility map (which lets a count read an index alone) are out of date.
    if (deps.engine === "postgres" && counts.added + counts.updated > NAMED_CHANGES) await sql`vacuum (analyze) products`.execute(deps.db);
    return { ok: true, ...counts };
  } finally {
    source.destroy();
    await spool.remove();
  }
}

/** Every row checked, the good ones kept in `spool` until the first bad one (after it, only problems are gathered). */
async function checkAll(source: Readable, format: Format, spool: Spool, onProgress?: (progress: ImportProgress) => void): Promise<Checked | Extract<ImportOutcome, { ok: false }>> {
  const problems: Problem[] = [];
  let unlisted = 0;
  const report = (problem: Problem) => (problems.length < MAX_PROBLEMS ? problems.push(problem) : unlisted++);
  const idRows = new Map<number, number>();
  const categories = new Set<string>();
  let rows = 0;
  let maxId = 0;
  try {
    for await (const read of readRows(source, format)) {
      rows = read.row;
      if (rows % PROGRESS_EVERY === 0) onProgress?.({ stage: "checked", rows });
      if ("problem" in read) {
        report(read.problem);
        continue;
      }
      const { row, raw } = read;
      const checked = checkRow(raw, row, format, idRows);
      if (!checked.ok) {
        checked.problems.forEach(report);
        continue;
      }
      if (checked.value.id !== undefined) maxId = Math.max(maxId, checked.value.id);
      categories.add(checked.value.category);
      if (problems.length === 0) await spool.write(checked.value);
    }
  } catch (error) {
    if (!(error instanceof UnreadableFile)) throw error;
    report({ row: null, field: "", message: error.message });
  }
  onProgress?.({ stage: "checked", rows });
  return problems.length > 0 ? { ok: false, problems, unlisted } : { ok: true, rows, categories, maxId };
}

/** A row checked by itself, and its id against those of the rows before it (`idRows`: id → row). */
function checkRow(raw: RawRow, row: number, format: Format, idRows: Map<number, number>): ReturnType<typeof checkFields> {
  const checked = checkFields(raw, row, format);
  if (!checked.ok || checked.value.id === undefined) return checked;
  const first = idRows.get(checked.value.id);
  if (first !== undefined) return { ok: false, problems: [{ row, field: fieldName("id", format), message: `The id ${checked.value.id} is also on row ${first}.` }] };
  idRows.set(checked.value.id, row);
  return checked;
}

/** The columns a file's row sets, compared to tell an update from an unchanged product. */
type Stored = Pick<Selectable<ProductsTable>, keyof ProductValues>;

/** A row's values for product `id`; with no rating given, the product's own (none for a new one). */
function valuesOf(row: ProductRow, id: number, before?: Stored): ProductValues {
  return {
    id,
    title: row.title,
    price_cents: row.priceCents,
    description: row.description,
    category: row.category,
    image: row.image,
    rating_rate: row.ratingRate ?? Number(before?.rating_rate ?? 0),
    rating_count: row.ratingCount ?? before?.rating_count ?? 0,
    stock: row.stock,
  };
}

const sameValues = (before: Stored, after: ProductValues) =>
  (Object.keys(after) as Array<keyof ProductValues>).every((key) => (key === "rating_rate" ? Number(before[key]) === after[key] : before[key] === after[key]));

/** The writing transaction's running state: counts, the next free id, and the products changed (named up to NAMED_CHANGES). */
interface Writing extends ImportCounts {
  trx: Transaction<Schema>;
  now: number;
  nextId: number;
  changed: number[];
  changes: number;
}

function noteChanged(state: Writing, ids: number[]): void {
  state.changes += ids.length;
  if (state.changed.length <= NAMED_CHANGES) state.changed.push(...ids.slice(0, NAMED_CHANGES + 1 - state.changed.length));
}

/** The rows with ids: added or updated by id, each compared first with the product as it is. */
async function writeById(state: Writing, rows: ProductRow[]): Promise<void> {
  if (rows.length === 0) return;
  const ids = rows.map((row) => row.id!);
  const found = await state.trx.selectFrom("products").select(["id", "title", "price_cents", "description", "category", "image", "rating_rate", "rating_count", "stock"]).where("id", "in", ids).execute();
  const stored = new Map(found.map((row) => [row.id, row]));
  const writes: ProductValues[] = [];
  for (const row of rows) {
    const before = stored.get(row.id!);
    const values = valuesOf(row, row.id!, before);
    if (before && sameValues(before, values)) {
      state.unchanged++;
      continue;
    }
    if (before) state.updated++;
    else state.added++;
    writes.push(values);
  }
  await upsertProducts(state.trx, writes, state.now);
  noteChanged(state, writes.map((values) => values.id));
}

/** The rows without an id, under the next free ids; an id another writer took meanwhile is skipped. */
async function writeNew(state: Writing, rows: ProductRow[]): Promise<void> {
  let waiting = rows;
  while (waiting.length > 0) {
    const values = waiting.map((row) => valuesOf(row, state.nextId++));
    const added = new Set(await addProducts(state.trx, values, state.now));
    state.added += added.size;
    noteChanged(state, [...added]);
    waiting = waiting.filter((_, i) => !added.has(values[i]!.id));
    if (waiting.length > 0) state.nextId = Math.max(state.nextId, (await topId(state.trx)) + 1);
  }
}

async function topId(trx: Transaction<Schema>): Promise<number> {
  const { top } = await trx.selectFrom("products").select((eb) => eb.fn.max<number | null>("id").as("top")).executeTakeFirstOrThrow();
  return Number(top ?? 0);
}

/** All the spooled rows in one transaction (run again whole after a PostgreSQL deadlock), the audit entry and the event with it. */
async function writeAll(deps: ImportDeps, spool: Spool, checked: Checked, actor: Actor, onProgress?: (progress: ImportProgress) => void): Promise<ImportCounts> {
  const now = deps.now?.() ?? Date.now();
  return inTransaction(deps.db, async (trx) => {
    // Each batch's statements are prepared once per connection, and PostgreSQL would plan them
    // once for all: on a table that grows by thousands of rows within this transaction, a plan
    // made while it was small (a scan of the whole table per batch) makes the import quadratic.
    if (deps.engine === "postgres") await sql`set local plan_cache_mode = force_custom_plan`.execute(trx);
    const names = [...checked.categories];
    for (let i = 0; i < names.length; i += BATCH) await addCategories(trx, names.slice(i, i + BATCH));
    // New ids come after every id the file names, so no row without one takes a later row's id.
    const state: Writing = { trx, now, added: 0, updated: 0, unchanged: 0, nextId: Math.max(await topId(trx), checked.maxId) + 1, changed: [], changes: 0 };
    let written = 0;
    for await (const batch of spool.batches(BATCH)) {
      await writeById(state, batch.filter((row) => row.id !== undefined));
      await writeNew(state, batch.filter((row) => row.id === undefined));
      written += batch.length;
      onProgress?.({ stage: "written", rows: written, of: checked.rows });
    }
    const counts: ImportCounts = { added: state.added, updated: state.updated, unchanged: state.unchanged };
    await appendAudit(trx, { actor, action: "products.import", target: "products", after: counts }, now);
    if (state.changes > 0) await deps.events.publish(trx, { ids: state.changes <= NAMED_CHANGES ? state.changed : null });
    return counts;
  });
}
