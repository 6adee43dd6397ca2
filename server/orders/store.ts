import { type Kysely, sql, type Transaction } from "kysely";
import { formatCents } from "../../lib/basket.ts";
import { olderThan, pageOf, type TimeCursor } from "../db/cursor.ts";
import { prepared } from "../db/prepared.ts";
import type { Schema } from "../db/schema.ts";
import { RefundRefused } from "./refund-store.ts";
import { type LineJson, lineFromJson, lineJson, type NewOrder, type Order, orderStatus } from "./order.ts";

type Db = Kysely<Schema> | Transaction<Schema>;

/**
 * Writes the order of a payment unless it exists: the payment intent id is the primary key, so
 * whatever the retries, tabs, webhook replays or concurrent calls, there is one. True when this
 * call wrote it.
 */
export async function insertOrder(db: Db, userId: string, order: NewOrder, placed: number): Promise<boolean> {
  const result = await insertOrderRow(db, { id: order.id, userId, amount: order.amountCents, basket: basketColumn(order.basket), created: order.created, placed });
  return Number(result.numAffectedRows ?? 0) > 0;
}

const insertOrderRow = prepared((db: Kysely<Schema>, p: { id: string; userId: string; amount: number; basket: string; created: number; placed: number }) =>
  db
    .insertInto("orders")
    .values({ id: p.id, user_id: p.userId, amount: p.amount, basket: p.basket, created: p.created, placed: p.placed })
    .onConflict((oc) => oc.column("id").doNothing()),
);

/** Marks an order paid after its reservation lapsed and sold below zero (stock's sale, in the fulfilment's transaction). */
export async function markOversold(trx: Transaction<Schema>, id: string): Promise<void> {
  await trx.updateTable("orders").set({ status: "oversold" }).where("id", "=", id).execute();
}

/** One order of one user, with when it was written; null when it does not exist or is someone else's. */
export async function findOrder(db: Db, userId: string, id: string): Promise<(Order & { placed: number }) | null> {
  const row = await db
    .selectFrom("orders")
    .select([...COLUMNS, "placed"])
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? { ...toOrder(row), placed: Number(row.placed) } : null;
}

/**
 * One page of a user's orders, newest first (spec section 7: ordered by created descending),
 * strictly after `before`. It reads `limit + 1` rows to know whether there is a next page, never
 * the whole history.
 */
export async function listOrders(
  db: Db,
  userId: string,
  { limit, before }: { limit: number; before?: TimeCursor | null },
): Promise<{ orders: Order[]; next: string | null }> {
  const { rows } = before
    ? await ordersBefore(db, { userId, at: before.at, id: before.id, limit: limit + 1 })
    : await newestOrders(db, { userId, limit: limit + 1 });
  const page = pageOf(rows, limit, (row) => ({ at: Number(row.created), id: row.id }));
  return { orders: page.rows.map(toOrder), next: page.next };
}

const newestOrders = prepared((db: Kysely<Schema>, p: { userId: string; limit: number }) =>
  db.selectFrom("orders").select(COLUMNS).where("user_id", "=", p.userId).orderBy("created", "desc").orderBy("id", "desc").limit(p.limit),
);

const ordersBefore = prepared((db: Kysely<Schema>, p: { userId: string; at: number; id: string; limit: number }) =>
  db
    .selectFrom("orders")
    .select(COLUMNS)
    .where("user_id", "=", p.userId)
    .where(olderThan({ at: p.at, id: p.id }, "created", "id"))
    .orderBy("created", "desc")
    .orderBy("id", "desc")
    .limit(p.limit),
);

/** A user's orders written at or after `placedSince` (epoch ms), in the order they were written. */
export async function ordersPlacedSince(db: Db, userId: string, placedSince: number, limit = 100): Promise<Array<Order & { placed: number }>> {
  const rows = await db
    .selectFrom("orders")
    .select([...COLUMNS, "placed"])
    .where("user_id", "=", userId)
    .where("placed", ">=", placedSince)
    .orderBy("placed")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...toOrder(row), placed: Number(row.placed) }));
}

/** The `basket` column holds the lines in the spec's JSON shape (a line's quantity is `amount`). */
export const basketColumn = (basket: NewOrder["basket"]): string => JSON.stringify(basket.map(lineJson));

export const basketFromColumn = (json: string): NewOrder["basket"] => (JSON.parse(json) as LineJson[]).map(lineFromJson);

export const COLUMNS = ["id", "amount", "created", "basket", "status", "refunded"] as const;

export type OrderRow = { id: string; amount: number; created: string | number; basket: string; status: string; refunded: number };

export function toOrder(row: OrderRow): Order {
  return {
    id: row.id,
    amountCents: row.amount,
    created: Number(row.created),
    basket: basketFromColumn(row.basket),
    status: orderStatus(row.status),
    refundedCents: Number(row.refunded),
  };
}

/**
 * Takes `cents` off what is left to refund of the order and answers the order's refunded total
 * and status after it, or throws RefundRefused. One conditional statement (`refunded + n <=
 * paid`), so concurrent refunds on any number of instances can never together pass what was paid.
 * The refund's lines are taken first (refunds/line-units.ts), then the order: two refunds never
 * wait on each other in a cycle.
 */
export async function takeRefund(trx: Transaction<Schema>, orderId: string, cents: number): Promise<{ refundedCents: number; status: string }> {
  const taken = await trx
    .updateTable("orders")
    .set({
      refunded: sql<number>`refunded + ${cents}`,
      status: sql<string>`case when refunded + ${cents} >= amount then 'refunded' else 'partially_refunded' end`,
    })
    .where("id", "=", orderId)
    .where(sql<boolean>`refunded + ${cents} <= amount`)
    .returning(["refunded", "status"])
    .executeTakeFirst();
  if (!taken) {
    const row = await trx.selectFrom("orders").select(["amount", "refunded"]).where("id", "=", orderId).executeTakeFirst();
    const left = row ? row.amount - row.refunded : 0;
    throw new RefundRefused(`A refund of ${formatCents(cents)} is more than is left to refund of this order (${formatCents(left)}).`);
  }
  return { refundedCents: Number(taken.refunded), status: taken.status };
}

/**
 * Gives back the cents a refund the gateway refused had taken: the order may be refunded again.
 * Called once per refund (when it turns from pending to failed). The order's shopper, or null.
 */
export async function giveBackRefund(trx: Transaction<Schema>, orderId: string, cents: number): Promise<string | null> {
  await trx
    .updateTable("orders")
    .set({
      refunded: sql<number>`refunded - ${cents}`,
      // Back to paid when nothing is refunded any more (an oversold order stays paid: its stock story is in the log).
      status: sql<string>`case when refunded - ${cents} <= 0 then 'paid' else 'partially_refunded' end`,
    })
    .where("id", "=", orderId)
    .execute();
  const row = await trx.selectFrom("orders").select("user_id").where("id", "=", orderId).executeTakeFirst();
  return row?.user_id ?? null;
}
