// The one module that writes the `products` table: the seed's first catalogue, the back office's
// creates and edits, catalogue files loaded (transfer/), and stock's moves of `stock` and
// `reserved`. Each caller passes its own transaction; the rules of when a write may happen stay
// with the caller.

import { type Insertable, type Kysely, type RawBuilder, sql, type Transaction, type UpdateObject } from "kysely";
import { prepared } from "../db/prepared.ts";
import type { ProductsTable, Schema } from "../db/schema.ts";

/**
 * Every column of a product as `ProductsTable` has it: what a read of whole rows names, rather than
 * `*`, which on PostgreSQL would also carry the full-text index's generated columns.
 */
export const PRODUCT_COLUMNS = ["id", "title", "price_cents", "description", "category", "image", "rating_rate", "rating_count", "stock", "reserved", "updated", "version", "archived_at"] as const satisfies ReadonlyArray<keyof ProductsTable>;

/** What an edit sets: values, or expressions of the row (the stock moved by a delta). */
export type ProductUpdate = UpdateObject<Schema, "products">;

/** Products that are not there yet; an id already taken is left as it is. How many were written. */
export async function insertProducts(trx: Transaction<Schema>, rows: Array<Insertable<ProductsTable>>): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await trx
    .insertInto("products")
    .values(rows)
    .onConflict((oc) => oc.column("id").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** A product's fields as a catalogue file gives them (server/catalogue/transfer/). */
export type ProductValues = Pick<ProductsTable, "id" | "title" | "price_cents" | "description" | "category" | "image" | "rating_rate" | "rating_count" | "stock">;

/** Rows per statement of a bulk write: well within both engines' limits on bound parameters (SQLite 32,766). */
const BATCH = 500;

const batches = <T>(rows: T[]): T[][] => Array.from({ length: Math.ceil(rows.length / BATCH) }, (_, i) => rows.slice(i * BATCH, (i + 1) * BATCH));

/**
 * Products from a catalogue file, 500 per statement: an id not there yet is added, an existing
 * product takes the given fields with a new version (so a back-office form opened before is
 * refused), keeping its reserved units and whether it is archived.
 */
export async function upsertProducts(trx: Transaction<Schema>, rows: ProductValues[], now: number): Promise<void> {
  for (const batch of batches(rows)) {
    await trx
      .insertInto("products")
      .values(batch.map((row) => ({ ...row, reserved: 0, updated: now })))
      .onConflict((oc) =>
        oc.column("id").doUpdateSet((eb) => ({
          title: eb.ref("excluded.title"),
          price_cents: eb.ref("excluded.price_cents"),
          description: eb.ref("excluded.description"),
          category: eb.ref("excluded.category"),
          image: eb.ref("excluded.image"),
          rating_rate: eb.ref("excluded.rating_rate"),
          rating_count: eb.ref("excluded.rating_count"),
          stock: eb.ref("excluded.stock"),
          updated: eb.ref("excluded.updated"),
          version: sql<number>`products.version + 1`,
        })),
      )
      .execute();
  }
}

/** New products under ids the caller chose, 500 per statement; answers the ids added (an id taken meanwhile is left as it is, and out). */
export async function addProducts(trx: Transaction<Schema>, rows: ProductValues[], now: number): Promise<number[]> {
  const added: number[] = [];
  for (const batch of batches(rows)) {
    const inserted = await trx
      .insertInto("products")
      .values(batch.map((row) => ({ ...row, reserved: 0, updated: now })))
      .onConflict((oc) => oc.column("id").doNothing())
      .returning("id")
      .execute();
    added.push(...inserted.map((row) => row.id));
  }
  return added;
}

/** One edit of a product at `version` (a new version, stamped `now`); false when the product has moved on (or is gone). */
export async function updateProductAt(trx: Transaction<Schema>, id: number, version: number, set: ProductUpdate, now: number): Promise<boolean> {
  const result = await trx
    .updateTable("products")
    .set({ ...set, version: sql<number>`version + 1`, updated: now })
    .where("id", "=", id)
    .where("version", "=", version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Units back on the shelf (a refund's restock), in id order. */
export async function addStock(trx: Transaction<Schema>, lines: ReadonlyArray<{ id: number; quantity: number }>, now: number): Promise<void> {
  for (const line of [...lines].sort((a, b) => a.id - b.id)) {
    await trx.updateTable("products").set({ stock: sql<number>`stock + ${line.quantity}`, updated: now }).where("id", "=", line.id).execute();
  }
}

/** Reserved units given back (a reservation that expired), per product id, in id order. */
export async function releaseReserved(trx: Transaction<Schema>, units: ReadonlyMap<number, number>, now: number): Promise<void> {
  for (const [id, n] of [...units].sort((a, b) => a[0] - b[0])) {
    await trx.updateTable("products").set({ reserved: sql<number>`reserved - ${n}`, updated: now }).where("id", "=", id).execute();
  }
}

/**
 * Several products changed in one statement: product `ids[i]` loses `stock[i]` units of stock
 * and gains `reserved[i]` reserved ones, product `guardIds[j]` only while `units[j]` are available
 * once `givenBack[j]` are back (`stock - reserved + givenBack >= units`). One shape per number of
 * products and of guarded ones.
 */
interface ProductChanges {
  ids: number[];
  stock: number[];
  reserved: number[];
  guardIds: number[];
  units: number[];
  givenBack: number[];
  now: number;
}

function productChanges(p: ProductChanges) {
  const int = (value: number | undefined) => sql`cast(${value} as integer)`;
  const byId = (values: number[]) => sql`case p.id ${sql.join(p.ids.map((id, i) => sql`when ${id} then ${int(values[i])}`), sql` `)} else 0 end`;
  const guard =
    p.guardIds.length === 0 ? sql`1 = 1` : sql`case p.id ${sql.join(p.guardIds.map((id, j) => sql`when ${id} then p.stock - p.reserved + ${int(p.givenBack[j])} >= ${int(p.units[j])}`), sql` `)} else 1 = 1 end`;
  const ids = sql.join(p.ids.map((id) => sql`${id}`));
  const set = sql`stock = p.stock - ${byId(p.stock)}, reserved = p.reserved + ${byId(p.reserved)}, updated = ${p.now}`;
  return { ids, set, guard };
}

/** SQLite (one writer at a time): the changes, answering the rows changed with what each has left. */
const changeProductsOnSqlite = prepared((_db: Kysely<Schema>, p: ProductChanges) => {
  const { ids, set, guard } = productChanges(p);
  return sql<{ id: number; stock: number; reserved: number }>`update products as p set ${set} where p.id in (${ids}) and ${guard} returning id, stock, reserved`;
});

/** PostgreSQL: the same, the rows locked in ascending id order first, so two writers never wait on each other in a cycle. */
const changeProductsOnPostgres = prepared((_db: Kysely<Schema>, p: ProductChanges) => {
  const { ids, set, guard } = productChanges(p);
  return sql<{ id: number; stock: number; reserved: number }>`update products as p set ${set} from (select id as locked_id from products where id in (${ids}) order by id for update) as locked where p.id = locked.locked_id and ${guard} returning id, stock, reserved`;
});

/** A change of one product's units: `stock` taken off its stock, `reserved` added to its reserved units, with `need` only while that many are available. */
export interface ProductChange {
  id: number;
  stock: number;
  reserved: number;
  need?: { units: number; givenBack: number };
}

/**
 * Changes several products in one statement (stock's reservations and sales). A change with
 * `need` applies only while the product has `need.units` available once `need.givenBack` units
 * are back (`stock - reserved + givenBack >= units`). Answers the rows changed, with the stock
 * each has left. On PostgreSQL the rows are locked in ascending id order first (a subquery `for
 * update`), so two checkouts never wait on each other in a cycle; SQLite runs one writer at a time.
 */
export async function changeProducts(trx: Transaction<Schema>, engine: "sqlite" | "postgres" | undefined, changes: ProductChange[], now: number): Promise<Array<{ id: number; stock: number; reserved: number }>> {
  if (changes.length === 0) return [];
  const guarded = changes.filter((change) => change.need);
  const params = {
    ids: changes.map((change) => change.id),
    stock: changes.map((change) => change.stock),
    reserved: changes.map((change) => change.reserved),
    guardIds: guarded.map((change) => change.id),
    units: guarded.map((change) => change.need!.units),
    givenBack: guarded.map((change) => change.need!.givenBack),
    now,
  };
  return (await (engine === "postgres" ? changeProductsOnPostgres : changeProductsOnSqlite)(trx, params)).rows;
}

/**
 * PostgreSQL: the last part of one statement that sells held units: `lines` (a CTE of the
 * caller's, rows `id, units, live`) come off each product's stock and reserved units, the rows
 * locked in id order first. Answers `id, stock, live`.
 */
export const sellLinesOnPostgres = (now: number): RawBuilder<unknown> => sql`
    update products as p set stock = p.stock - lines.units, reserved = p.reserved - lines.units, updated = ${now}
    from lines, (select id as locked_id from products where id in (select id from lines) order by id for update) as locked
    where p.id = lines.id and p.id = locked.locked_id
    returning p.id, p.stock, lines.live`;
