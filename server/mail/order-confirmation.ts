import { sql, type Transaction } from "kysely";
import type { Schema } from "../db/schema.ts";
import type { NewOrder } from "../orders/order.ts";
import { enqueueMail } from "./outbox.ts";

/**
 * Writes the order's confirmation to the outbox, inside the fulfilment transaction that writes
 * the order: both commit or neither. Keyed by the order id, so whatever the retries, webhook
 * replays or instances there is one. The address is the shopper's account email as it is now.
 */
export async function enqueueOrderConfirmation(trx: Transaction<Schema>, userId: string, order: NewOrder, now: number): Promise<void> {
  // better-auth's table, not ours: read it with plain SQL ("user" is quoted, a keyword on PostgreSQL).
  const { rows } = await sql<{ email: string }>`select email from "user" where id = ${userId}`.execute(trx);
  const recipient = rows[0]?.email;
  if (!recipient) return; // no account, no address (never the case for a real checkout)
  await enqueueMail(trx, {
    kind: "order_confirmation",
    key: order.id,
    recipient,
    now,
    payload: {
      orderId: order.id,
      amount: order.amount,
      created: order.created,
      lines: order.basket.map(({ title, amount, priceCents }) => ({ title, amount, priceCents })),
    },
  });
}
