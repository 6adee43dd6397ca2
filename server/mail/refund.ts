import { sql, type Transaction } from "kysely";
import type { Schema } from "../db/schema.ts";
import { enqueueMail } from "./outbox.ts";

/**
 * Writes a refund's mail to the outbox inside the transaction that records the refund as done:
 * both commit or neither. Keyed by the refund's id, so replays and retries make one message.
 */
export async function enqueueRefundMail(trx: Transaction<Schema>, refund: { id: string; orderId: string; amountCents: number }, now: number): Promise<boolean> {
  // better-auth's table, read with plain SQL as the order confirmation does.
  const { rows } = await sql<{ email: string; amount: number; refunded: number }>`
    select u.email, o.amount, o.refunded from orders o join "user" u on u.id = o.user_id where o.id = ${refund.orderId}`.execute(trx);
  const row = rows[0];
  if (!row) return false;
  return enqueueMail(trx, {
    kind: "refund",
    key: refund.id,
    recipient: row.email,
    now,
    payload: { orderId: refund.orderId, amount: refund.amountCents, refundedTotal: Number(row.refunded), orderAmount: Number(row.amount) },
  });
}
