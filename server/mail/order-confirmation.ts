import type { Transaction } from "kysely";
import type { Schema } from "../db/schema.ts";
import type { NewOrder } from "../orders/order.ts";
import { enqueueMailToUser } from "./outbox.ts";

/**
 * Writes the order's confirmation to the outbox, inside the fulfilment transaction that writes
 * the order: both commit or neither. Keyed by the order id, so whatever the retries, webhook
 * replays or instances there is one. The address is the shopper's account email as it is now,
 * read by the insert itself (one statement, one round trip on PostgreSQL).
 */
export async function enqueueOrderConfirmation(trx: Transaction<Schema>, userId: string, order: NewOrder, now: number): Promise<void> {
  // No account, no address (never the case for a real checkout): nothing is written.
  await enqueueMailToUser(trx, {
    kind: "order_confirmation",
    key: order.id,
    userId,
    now,
    payload: {
      orderId: order.id,
      amount: order.amountCents,
      created: order.created,
      lines: order.basket.map(({ title, quantity, priceCents }) => ({ title, amount: quantity, priceCents })),
    },
  });
}
