import type { Kysely, Transaction } from "kysely";
import type { Schema } from "../db/schema.ts";
import { enqueueOrderConfirmation } from "../mail/order-confirmation.ts";
import type { BasketLine, Order } from "../orders/order.ts";
import { insertOrder } from "../orders/store.ts";
import type { IntentStatus } from "./gateway.ts";

export interface Payment {
  id: string;
  userId: string;
  gateway: "test" | "stripe";
  amount: number;
  basket: BasketLine[];
  status: IntentStatus;
  clientSecretHash: string | null;
  created: number;
}

export async function insertPayment(db: Kysely<Schema>, payment: Payment): Promise<void> {
  await db
    .insertInto("payments")
    .values({
      id: payment.id,
      user_id: payment.userId,
      gateway: payment.gateway,
      amount: payment.amount,
      currency: "usd",
      basket: JSON.stringify(payment.basket),
      status: payment.status,
      client_secret_hash: payment.clientSecretHash,
      card_brand: null,
      card_last4: null,
      created: payment.created,
      updated: payment.created,
    })
    .execute();
}

export async function findPayment(db: Kysely<Schema>, id: string): Promise<Payment | null> {
  const row = await db.selectFrom("payments").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    userId: row.user_id,
    gateway: row.gateway as Payment["gateway"],
    amount: row.amount,
    basket: JSON.parse(row.basket) as BasketLine[],
    status: row.status as IntentStatus,
    clientSecretHash: row.client_secret_hash,
    created: Number(row.created),
  };
}

export interface Fulfilment {
  /** False when the payment had already succeeded before this call. */
  changed: boolean;
  /** The payment's order, whoever wrote it. */
  order: Order;
  /** True when this call wrote the order. */
  placed: boolean;
}

/**
 * Marks a payment succeeded and writes its order, in one transaction: either both happen or
 * neither. A payment that had already succeeded changes nothing (`changed: false`), and its order
 * is never written twice (the order's key is the payment intent id).
 */
export async function markSucceeded(
  db: Kysely<Schema>,
  payment: Payment,
  details: {
    card?: { brand: string; last4: string };
    created?: number;
    now: number;
    /** Runs inside the transaction when this call writes the order (the live feed's announcement). */
    onPlaced?: (trx: Transaction<Schema>, order: Order) => Promise<void>;
  },
): Promise<Fulfilment> {
  const order: Order = { id: payment.id, amount: payment.amount, basket: payment.basket, created: details.created ?? payment.created };
  return db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("payments")
      .set({
        status: "succeeded",
        updated: details.now,
        ...(details.card ? { card_brand: details.card.brand, card_last4: details.card.last4 } : {}),
      })
      .where("id", "=", payment.id)
      .where("status", "!=", "succeeded")
      .executeTakeFirst();
    const placed = await insertOrder(trx, payment.userId, order, details.now);
    if (placed) await details.onPlaced?.(trx, order);
    // The confirmation mail commits with the order (transactional outbox): never one without the other.
    if (placed) await enqueueOrderConfirmation(trx, payment.userId, order, details.now);
    return { changed: Number(updated.numUpdatedRows) > 0, order, placed };
  });
}

/** Payments of `gateway` still in flight that were started after `since` (epoch ms), oldest first. */
export async function paymentsInFlight(db: Kysely<Schema>, gateway: Payment["gateway"], since: number, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom("payments")
    .select("id")
    .where("gateway", "=", gateway)
    .where("status", "not in", ["succeeded", "canceled"])
    .where("created", ">=", since)
    .orderBy("created")
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}
