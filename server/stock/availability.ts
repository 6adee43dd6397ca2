import { type Kysely, sql, type Transaction } from "kysely";
import { shortOf } from "../../lib/stock.ts";
import type { Schema } from "../db/schema.ts";

export type StockRefusal = { ok: false; status: 409; message: string; code: "insufficient_stock" };

export const refusal = (title: string, left: number): StockRefusal => ({ ok: false, status: 409, message: shortOf(title, left), code: "insufficient_stock" });

/**
 * Units available at `now` (stock less live reservations: lapsed ones count as given back) of each
 * of `ids` the database holds; with `userId`, that shopper's own held units count as available too
 * (a new checkout gives them back). One statement.
 */
export async function available(db: Kysely<Schema> | Transaction<Schema>, ids: number[], now: number, userId?: string): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom("products as p")
    .select(["p.id", "p.stock", "p.reserved"])
    .select(sql<number | string | null>`(select sum(r.amount) from reservations r where r.product_id = p.id and r.state = 'held' and r.expires_at <= ${now})`.as("lapsed"))
    .select(sql<number | string | null>`${userId === undefined ? sql`null` : sql`(select sum(r.amount) from reservations r where r.product_id = p.id and r.state = 'held' and r.user_id = ${userId})`}`.as("mine"))
    .where("p.id", "in", ids)
    .execute();
  return new Map(rows.map((row) => [row.id, Math.max(0, row.stock - row.reserved + Number(row.lapsed ?? 0)) + Number(row.mine ?? 0)]));
}
