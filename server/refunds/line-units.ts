// The `order_line_refunds` table: how many units of each order line have been refunded. Only
// refunds write it; the order's page reads it (orders/refund-store.ts refundedUnits).

import { sql, type Transaction } from "kysely";
import type { Schema } from "../db/schema.ts";
import type { BasketLine } from "../orders/order.ts";
import { type LineUnits, RefundRefused } from "../orders/refund-store.ts";

/**
 * Takes `lines` off what is left to refund of the order's lines, or throws RefundRefused. Each
 * guard is one conditional statement (`refunded + n <= bought`), so concurrent refunds can never
 * together pass what was bought. Lines are updated in id order.
 */
export async function takeLineUnits(trx: Transaction<Schema>, order: { id: string; basket: BasketLine[] }, lines: LineUnits[]): Promise<void> {
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
}

/** Gives back the units a refund the gateway refused had taken: those lines may be refunded again. */
export async function giveBackLineUnits(trx: Transaction<Schema>, orderId: string, lines: LineUnits[]): Promise<void> {
  for (const line of [...lines].sort((a, b) => a.id - b.id)) {
    await trx
      .updateTable("order_line_refunds")
      .set({ refunded: sql<number>`refunded - ${line.quantity}` })
      .where("order_id", "=", orderId)
      .where("line_id", "=", line.id)
      .execute();
  }
}
