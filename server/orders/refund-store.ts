import { sql, type Kysely, type Transaction } from "kysely";
import { formatCents } from "../../lib/basket.ts";
import type { Schema } from "../db/schema.ts";

type Db = Kysely<Schema> | Transaction<Schema>;

/** Units of one order line (its product id) being refunded. */
export interface LineUnits {
  id: number;
  quantity: number;
}

/** Thrown inside a refund's transaction to roll it back and answer 422 with `message`. */
export class RefundRefused extends Error {
  override readonly name = "RefundRefused";
}

/** Units refunded so far per line of `orderId` (lines never refunded are absent). */
export async function refundedUnits(db: Db, orderId: string): Promise<Map<number, number>> {
  const rows = await db.selectFrom("order_line_refunds").select(["line_id", "refunded"]).where("order_id", "=", orderId).execute();
  return new Map(rows.map((row) => [row.line_id, row.refunded]));
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
