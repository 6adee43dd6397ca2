import { sql, type Kysely, type Transaction } from "kysely";
import { formatCents } from "../../lib/basket.ts";
import type { Schema } from "../db/schema.ts";
import type { BasketLine } from "./order.ts";

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
 * Takes `cents` and `lines` off what is left to refund of the order (and answers the order's
 * refunded total and status after it), or throws RefundRefused.
 * Each guard is one conditional statement (`refunded + n <= paid`), so concurrent refunds on any
 * number of instances can never together pass what was paid, in total or per line. Lines are
 * updated in id order, then the order: two refunds never wait on each other in a cycle.
 */
export async function takeRefund(
  trx: Transaction<Schema>,
  order: { id: string; basket: BasketLine[] },
  cents: number,
  lines: LineUnits[],
): Promise<{ refundedCents: number; status: string }> {
  await trx
    .insertInto("order_line_refunds")
    .values(order.basket.map((line) => ({ order_id: order.id, line_id: line.id, quantity: line.quantity, refunded: 0 })))
    .onConflict((oc) => oc.columns(["order_id", "line_id"]).doNothing())
    .execute();
  for (const line of [...lines].sort((a, b) => a.id - b.id)) {
    const taken = await trx
      .updateTable("order_line_refunds")
      .set({ refunded: sql<number>`refunded + ${line.quantity}` })
      .where("order_id", "=", order.id)
      .where("line_id", "=", line.id)
      .where(sql<boolean>`refunded + ${line.quantity} <= quantity`)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 0) {
      const row = await trx.selectFrom("order_line_refunds").select(["quantity", "refunded"]).where("order_id", "=", order.id).where("line_id", "=", line.id).executeTakeFirst();
      const title = order.basket.find((b) => b.id === line.id)?.title ?? `product ${line.id}`;
      const left = row ? row.quantity - row.refunded : 0;
      throw new RefundRefused(`Only ${left} of ${row?.quantity ?? 0} units of “${title}” can still be refunded; this refund asks for ${line.quantity}.`);
    }
  }
  const taken = await trx
    .updateTable("orders")
    .set({
      refunded: sql<number>`refunded + ${cents}`,
      status: sql<string>`case when refunded + ${cents} >= amount then 'refunded' else 'partially_refunded' end`,
    })
    .where("id", "=", order.id)
    .where(sql<boolean>`refunded + ${cents} <= amount`)
    .returning(["refunded", "status"])
    .executeTakeFirst();
  if (!taken) {
    const row = await trx.selectFrom("orders").select(["amount", "refunded"]).where("id", "=", order.id).executeTakeFirst();
    const left = row ? row.amount - row.refunded : 0;
    throw new RefundRefused(`A refund of ${formatCents(cents)} is more than is left to refund of this order (${formatCents(left)}).`);
  }
  return { refundedCents: Number(taken.refunded), status: taken.status };
}

/**
 * Gives back what a refund the gateway refused had taken: the order and its lines may be refunded
 * again. Called once per refund (when it turns from pending to failed). The order's shopper, or null.
 */
export async function giveBackRefund(trx: Transaction<Schema>, orderId: string, cents: number, lines: LineUnits[]): Promise<string | null> {
  for (const line of [...lines].sort((a, b) => a.id - b.id)) {
    await trx
      .updateTable("order_line_refunds")
      .set({ refunded: sql<number>`refunded - ${line.quantity}` })
      .where("order_id", "=", orderId)
      .where("line_id", "=", line.id)
      .execute();
  }
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
