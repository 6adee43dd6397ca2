import type { Kysely, Transaction } from "kysely";
import type { BasketLine } from "../../lib/basket.ts";
import type { CatalogueEvents } from "../catalogue/events.ts";
import { addStock, changeProducts, releaseReserved } from "../catalogue/products-table.ts";
import type { Schema } from "../db/schema.ts";
import type { Logger } from "../log.ts";
import type { StockOutcome, Telemetry } from "../observability/port.ts";
import { markOversold } from "../orders/store.ts";
import type { PaymentHolds } from "../payments/store.ts";
import { available, refusal, type StockRefusal } from "./availability.ts";
import { giveBack, holdsOf, insertHolds, lapse, lapsedPayments, sellHeldOnPostgres, sellHolds, sellLapsed } from "./holds.ts";
import { inTransaction, StockRefused } from "./transaction.ts";

export type { StockRefusal };

export interface StockDeps {
  db: Kysely<Schema>;
  /** PostgreSQL locks the products' rows in id order explicitly (SQLite has one writer at a time). */
  engine?: "sqlite" | "postgres";
  events: CatalogueEvents;
  log: Logger;
  reservationMs: number;
  /** Cancels a released or expired checkout's intent at the payment gateway, so a late payment cannot go through. */
  intents?: IntentCancelling;
  /** storefront_stock_reservations_total{outcome}, once per checkout. */
  telemetry?: Pick<Telemetry, "stockReservation">;
  now?: () => number;
}

/** The payment gateway, as far as stock cares (PaymentGateway offers both). */
export interface IntentCancelling {
  /** In the transaction that gives the units back: intents that are rows of ours are cancelled with them. */
  cancelWithin(trx: Transaction<Schema>, ids: string[], now: number): Promise<void>;
  /** After the commit, at the provider. */
  cancelIntent(id: string): Promise<void>;
}

/** A checkout's payment, as far as stock cares. */
export interface StockPayment {
  id: string;
  userId: string;
  basket: Array<{ id: number; quantity: number }>;
}

/**
 * Stock that never oversells. A checkout reserves its units in the transaction that records its
 * payment intent, with one update of all its products, each row changed only where its line's
 * units are available (`stock - reserved >= n`), so concurrent checkouts on any number of
 * instances cannot take the same unit twice. Writing the order turns
 * the reservation into a sale; an expired or replaced reservation gives its units back.
 */
export class StockService {
  private readonly now: () => number;

  constructor(private readonly deps: StockDeps) {
    this.now = deps.now ?? (() => Date.now());
  }

  /**
   * A cheap early refusal before anything is created (the reservation still decides, under lock).
   * The shopper's own open reservation counts as available: a new checkout gives it back.
   * `shown`: each product's units available as the catalogue's copy has them. A line the copy
   * covers is not read (if the copy is behind, the reservation refuses it all the same); only a
   * line the copy finds short, or does not count, is read from the database, which has the last word.
   */
  async check(userId: string, lines: BasketLine[], shown?: ReadonlyMap<number, number | null | undefined>): Promise<StockRefusal | null> {
    const doubtful = shown ? lines.filter((line) => !(line.quantity <= (shown.get(line.id) ?? -1))) : lines;
    if (doubtful.length === 0) return null;
    const rows = await available(this.deps.db, doubtful.map((line) => line.id), this.now(), userId);
    for (const line of doubtful) {
      const left = rows.get(line.id);
      if (left !== undefined && left < line.quantity) {
        this.count("refused");
        return refusal(line.title, left);
      }
    }
    return null;
  }

  /**
   * In one transaction: gives back this shopper's earlier open reservation and any expired one
   * on these products, reserves each line, and runs `record` (which stores the payment). A line
   * beyond what is available rolls everything back and answers the refusal.
   */
  async reserve(payment: StockPayment, lines: BasketLine[], record: (trx: Transaction<Schema>) => Promise<void>): Promise<StockRefusal | null> {
    const now = this.now();
    let givenBack: string[] = [];
    let expired = 0;
    try {
      await inTransaction(this.deps.db, async (trx) => {
        // This shopper's earlier open reservation is released, and any lapsed one on these
        // products expires, in one statement (the shopper's own counts as released).
        const { rows: given } = await giveBack(trx, { userId: payment.userId, productIds: lines.map((line) => line.id), now });
        const lapsed = given.filter((row) => row.state === "expired");
        const back = new Map<number, number>();
        for (const row of given) back.set(row.product_id, (back.get(row.product_id) ?? 0) + row.amount);
        const wanted = new Map(lines.map((line) => [line.id, line]));
        // The products' rows, which every checkout of the same products must wait for, are locked
        // last, just before the commit: the payment and reservation rows are written first.
        await this.deps.intents?.cancelWithin(trx, given.map((row) => row.payment_id), now);
        await record(trx);
        // No answer needed: on PostgreSQL the payment's and the reservations' inserts go out with the products' update.
        await insertHolds.withNext(trx, { paymentId: payment.id, userId: payment.userId, productIds: lines.map((line) => line.id), quantities: lines.map((line) => line.quantity), expiresAt: now + this.deps.reservationMs, now });
        // One statement for every product: each line's units are taken only where that many are
        // available (less what this checkout gives back), so no unit is ever taken twice.
        const ids = [...new Set([...back.keys(), ...wanted.keys()])].sort((a, b) => a - b);
        const changes = ids.map((id) => {
          const released = back.get(id) ?? 0;
          const n = wanted.get(id)?.quantity ?? 0;
          return { id, stock: 0, reserved: n - released, ...(n > 0 ? { need: { units: n, givenBack: released } } : {}) };
        });
        const rows = await changeProducts(trx, this.deps.engine, changes, now);
        const updated = new Set(rows.map((row) => row.id));
        for (const change of changes) {
          const line = wanted.get(change.id);
          if (!line || updated.has(change.id)) continue;
          const left = (await available(trx, [change.id], now)).get(change.id);
          // A product the database does not hold is not tracked here (pricing already refused unknown ones).
          if (left !== undefined) throw new StockRefused(refusal(line.title, left + (back.get(change.id) ?? 0)));
        }
        // Every product changed is one of the basket's, whose lapsed holds were just expired: the
        // new figures are all the catalogue's copies need (an earlier basket's products given back
        // may have lapsed holds of other shoppers: then they read the products again).
        const figures = rows.length === ids.length && ids.every((id) => wanted.has(id)) ? rows.map(({ id, stock, reserved }) => ({ id, stock, reserved })).sort((a, b) => a.id - b.id) : undefined;
        await this.deps.events.publish(trx, { ids, figures, stockOnly: true });
        givenBack = given.map((row) => row.payment_id);
        expired = new Set(lapsed.map((row) => row.payment_id)).size;
      });
      this.count("reserved");
      if (expired > 0) this.count("expired", expired);
      await this.cancelAtGateway(givenBack);
      return null;
    } catch (error) {
      if (!(error instanceof StockRefused)) throw error;
      this.count("refused");
      return error.refusal as StockRefusal;
    }
  }

  /**
   * Whether the payment's units are still held for it (or it holds none: stock not tracked). An
   * expired one gives its units back now, so a late confirmation cannot succeed. `known`: its
   * holds as already read with the payment (findPaymentWithHolds at `holdsCountedAt()`), else read here.
   */
  async stillHeld(paymentId: string, known?: PaymentHolds): Promise<boolean> {
    const holds = known ?? (await holdsOf(this.deps.db, paymentId, this.now()));
    if (holds.total === 0 || holds.live === holds.total) return true;
    await this.expire(paymentId);
    return false;
  }

  /** The time a hold is live until (exclusive): what `stillHeld`'s counts are taken at. */
  holdsCountedAt(): number {
    return this.now();
  }

  /**
   * In the fulfilment transaction: the reservation becomes a sale (stock and reserved go down).
   * A payment whose reservation had lapsed (the gateway took the money anyway) is sold all the
   * same, and its order is marked oversold when that takes a product's stock below zero.
   */
  async sell(trx: Transaction<Schema>, payment: StockPayment): Promise<void> {
    await (await this.sellWithNextStatement(trx, payment))(true);
  }

  /**
   * `sell`, begun before the fulfilment transaction knows whether it changed the payment: the
   * answer is called with that, after the transaction's next statement. On PostgreSQL the
   * statement selling the held units goes out with that next statement (the order's insert), a
   * round trip fewer per checkout. Sent for a payment this transaction did not change, it sells
   * nothing: a payment that has succeeded has no held units (they were sold in the transaction
   * that marked it, and a concurrent one waits for that transaction's row locks, then finds them
   * sold).
   */
  async sellWithNextStatement(trx: Transaction<Schema>, payment: StockPayment): Promise<(changed: boolean) => Promise<void>> {
    const now = this.now();
    if (this.deps.engine !== "postgres") {
      return async (changed) => {
        if (changed) await this.sold(trx, payment, await this.sellHeldOnSqlite(trx, payment.id, now), now);
      };
    }
    const answer = await sellHeldOnPostgres.withNextAnswered(trx, { paymentId: payment.id, now });
    return async (changed) => {
      const rows = (await answer()).rows.sort((a, b) => a.id - b.id);
      if (!changed) {
        if (rows.length > 0) throw new Error(`payment ${payment.id} had held units though it had succeeded before`);
        return;
      }
      await this.sold(trx, payment, rows, now);
    };
  }

  /** The rest of a sale once its held units are sold (`rows`: the products they changed). */
  private async sold(trx: Transaction<Schema>, payment: StockPayment, held: Array<{ id: number; stock: number; live: boolean }>, now: number): Promise<void> {
    let rows = held;
    let ids = rows.map((row) => row.id);
    // Units held until now were already counted out of what is available: selling them changes
    // no product as the catalogue shows it, so no catalogue-changed event (one fewer per checkout,
    // and on PostgreSQL one fewer NOTIFY, whose commits take turns). A lapsed hold had been
    // counted as available again: selling it is a change.
    const unseen = rows.length > 0 && rows.every((row) => row.live);
    if (rows.length === 0) {
      if ((await sellLapsed(trx, payment.id)).length === 0) return; // no reservation: stock not tracked for this payment
      const sold = [...payment.basket].sort((a, b) => a.id - b.id);
      rows = (await changeProducts(trx, this.deps.engine, sold.map((line) => ({ id: line.id, stock: line.quantity, reserved: 0 })), now)).map((row) => ({ ...row, live: false }));
      ids = sold.map((line) => line.id);
    }
    this.count("sold");
    const below = rows.filter((row) => row.stock < 0);
    if (below.length > 0) {
      await markOversold(trx, payment.id);
      this.deps.log.warn({ order: payment.id, products: below.map((row) => row.id) }, "order paid after its reservation expired: oversold");
    }
    if (!unseen) await this.deps.events.publish(trx, { ids, stockOnly: true });
  }

  /**
   * SQLite: sells the units still held for a payment: its held reservations become sold, and each
   * of their products gives those units up from `stock` and `reserved`. Answers the products
   * changed, with the stock each has left and whether its hold was still live (none when nothing
   * was held). PostgreSQL does the same in one statement (`sellHeldOnPostgres`).
   */
  private async sellHeldOnSqlite(trx: Transaction<Schema>, paymentId: string, now: number): Promise<Array<{ id: number; stock: number; live: boolean }>> {
    const { rows: held } = await sellHolds(trx, { paymentId });
    const lines = held.map((row) => ({ id: row.product_id, units: row.amount, live: Number(row.expires_at) > now })).sort((a, b) => a.id - b.id);
    // One update for every line, answering the stock it leaves: no second read while the rows are locked.
    const rows = await changeProducts(trx, this.deps.engine, lines.map((line) => ({ id: line.id, stock: line.units, reserved: -line.units })), now);
    const live = new Map(lines.map((line) => [line.id, line.live]));
    return rows.map((row) => ({ ...row, live: live.get(row.id)! }));
  }

  /**
   * Restock, in a refund's transaction: the refunded units go back on the shelf, and every page
   * that shows those products' availability hears of it.
   */
  async restock(trx: Transaction<Schema>, lines: Array<{ id: number; quantity: number }>): Promise<void> {
    const back = lines.filter((line) => line.quantity > 0).sort((a, b) => a.id - b.id);
    if (back.length === 0) return;
    await addStock(trx, back, this.now());
    await this.deps.events.publish(trx, { ids: back.map((line) => line.id), stockOnly: true });
  }

  /** Gives back the units of reservations that have expired; returns how many checkouts it released. */
  async sweep(limit = 100): Promise<number> {
    const payments = await lapsedPayments(this.deps.db, this.now(), limit);
    for (const id of payments) await this.expire(id);
    if (payments.length > 0) this.deps.log.info({ released: payments.length }, "expired reservations gave their units back");
    return payments.length;
  }

  /** One payment's held units back to stock, and its intent canceled, in one transaction. */
  private async expire(paymentId: string): Promise<void> {
    const now = this.now();
    let lapsed = false;
    await inTransaction(this.deps.db, async (trx) => {
      const given = await lapse(trx, paymentId);
      const units = new Map<number, number>();
      for (const row of given) units.set(row.product_id, (units.get(row.product_id) ?? 0) + row.amount);
      const ids = [...units.keys()].sort((a, b) => a - b);
      await releaseReserved(trx, units, now);
      await this.deps.intents?.cancelWithin(trx, [paymentId], now);
      if (ids.length > 0) await this.deps.events.publish(trx, { ids, stockOnly: true });
      lapsed = ids.length > 0;
    });
    if (lapsed) this.count("expired");
    await this.cancelAtGateway([paymentId]);
  }

  private count(outcome: StockOutcome, checkouts = 1): void {
    this.deps.telemetry?.stockReservation(outcome, checkouts);
  }

  /** After the commit: the released checkouts' intents are cancelled at the gateway too (a failure is logged; the reconciler retries expired ones). */
  private async cancelAtGateway(paymentIds: string[]): Promise<void> {
    const intents = this.deps.intents;
    if (!intents) return;
    for (const id of new Set(paymentIds)) {
      await intents.cancelIntent(id).catch((error: unknown) => this.deps.log.warn({ err: error, paymentIntent: id }, "could not cancel a released checkout's intent"));
    }
  }
}
