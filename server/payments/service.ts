import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { type BasketLine, formatCents, lineFrom, subtotalCents } from "../../lib/basket.ts";
import type { CardInput } from "../../lib/card.ts";
import { type Catalogue, CatalogueUnavailableError } from "../catalogue/catalogue.ts";
import type { Schema } from "../db/schema.ts";
import { RateLimiter } from "../api-edge/rate-limit.ts";
import type { Logger } from "../log.ts";
import { type CheckoutOutcome, noTelemetry, type Telemetry } from "../observability/port.ts";
import type { NewOrder } from "../orders/order.ts";
import type { OrdersService } from "../orders/service.ts";
import { RESERVATION_EXPIRED } from "../../lib/stock.ts";
import type { StockService } from "../stock/stock.ts";
import { overUnitLimit } from "../stock/unit-limit.ts";
import type { GatewayRefund, IntentState, PaymentGateway } from "./gateway.ts";
import { findPayment, findPaymentWithHolds, insertPayment, markSucceeded, type Payment, type PaymentHolds } from "./store.ts";

export type PaymentFailure = { ok: false; status: 400 | 402 | 404 | 409 | 422 | 503; message: string; code?: string; declineCode?: string };
export type PaymentResult<T> = { ok: true; value: T } | PaymentFailure;

/** What the browser learns of a successful payment: Stripe's paymentIntent fields (created in seconds). */
export interface PaymentIntentSummary {
  id: string;
  amount: number;
  created: number;
}

export interface PaymentsDeps {
  db: Kysely<Schema>;
  catalogue: Catalogue;
  gateway: PaymentGateway;
  orders: OrdersService;
  /** Refunds: what the gateway's webhook reports of them goes here. */
  refunds?: { record(updates: GatewayRefund[]): Promise<void> };
  /** Stock reservations; null where stock is not tracked. */
  stock?: StockService | null;
  log: Logger;
  /** Checkout outcomes and orders written, for the operators' metrics (gateway calls: instrumentedGateway). */
  telemetry?: Pick<Telemetry, "checkout" | "orderWritten">;
  now?: () => number;
  /** Payment intents one shopper may create per minute (PAYMENT_CREATE_RATE_LIMIT); unlimited when absent. */
  createLimitPerMinute?: number;
  /** The most units of one product a checkout may ask for (MAX_UNITS_PER_PRODUCT). */
  maxUnitsPerProduct: number;
}

const fail = (status: PaymentFailure["status"], message: string, code?: string): PaymentFailure => ({ ok: false, status, message, code });
/** Stripe's limit for one payment in USD ($999,999.99); the test gateway keeps to it too. */
export const MAX_AMOUNT_CENTS = 99_999_999;
const NOT_FOUND = fail(404, "No such payment intent.", "resource_missing");

/** How a checkout step's answer counts: its success, a card decline, the shop's failure, or a refused request. */
function checkoutOutcome(result: PaymentResult<unknown>, success: "created" | "succeeded"): CheckoutOutcome {
  if (result.ok) return success;
  return result.status === 402 ? "declined" : result.status === 503 ? "failed" : "rejected";
}

const summary = (order: NewOrder): PaymentIntentSummary => ({ id: order.id, amount: order.amountCents, created: Math.floor(order.created / 1000) });

/**
 * Checkout on the server. The server prices the basket from the catalogue in integer cents and
 * refuses a total that differs; only the server writes an order, in the transaction that marks
 * its payment succeeded, exactly once per payment intent.
 */
export class PaymentsService {
  private readonly now: () => number;
  private readonly telemetry: NonNullable<PaymentsDeps["telemetry"]>;
  private readonly createLimit: RateLimiter | null;

  constructor(private readonly deps: PaymentsDeps) {
    this.now = deps.now ?? Date.now;
    this.telemetry = deps.telemetry ?? noTelemetry;
    this.createLimit = deps.createLimitPerMinute ? new RateLimiter(deps.createLimitPerMinute, 60_000, this.now) : null;
  }

  /**
   * Counts one intent creation by `userId`: null when admitted, else the seconds until they may
   * try again. Each intent is a row here and an object at the gateway, so a loop must not make
   * them by the thousand. Per instance (each counts its own).
   */
  admitCreate(userId: string): number | null {
    return this.createLimit?.take(userId) ?? null;
  }

  get mode(): "test" | "stripe" {
    return this.deps.gateway.kind;
  }

  /** POST /api/payment/create: prices the lines, stores the snapshot with a new intent, gives its client secret. */
  create(userId: string, input: { items: Array<{ id: number; quantity: number }>; total: number }): Promise<PaymentResult<{ clientSecret: string }>> {
    return this.counted("created", () => this.startCheckout(userId, input));
  }

  /** POST /api/payment/confirm (test gateway): charges the card and, on success, writes the order in the same transaction. */
  confirm(userId: string, input: { clientSecret: string; card: CardInput }): Promise<PaymentResult<{ paymentIntent: PaymentIntentSummary }>> {
    return this.counted("succeeded", () => this.chargeCard(userId, input));
  }

  /**
   * POST /api/payment/complete: the browser says its payment went through; the server asks the
   * gateway, checks status, shopper and amount, and writes the order (or finds it).
   */
  complete(userId: string, paymentIntentId: string): Promise<PaymentResult<{ order: PaymentIntentSummary }>> {
    return this.counted("succeeded", () => this.completeFromGateway(userId, paymentIntentId));
  }

  private async startCheckout(userId: string, input: { items: Array<{ id: number; quantity: number }>; total: number }): Promise<PaymentResult<{ clientSecret: string }>> {
    const priced = await this.price(input.items);
    if (!priced.ok) return priced;
    const { lines, shown } = priced.value;
    const totalCents = subtotalCents(lines);
    if (totalCents !== input.total) {
      return fail(409, `The basket's prices have changed: its total is now ${formatCents(totalCents)}. Please review your basket.`, "amount_mismatch");
    }
    if (totalCents === 0) return fail(422, "There is nothing to pay for.", "amount_too_small");
    if (totalCents > MAX_AMOUNT_CENTS) {
      return fail(422, `A single payment can be at most ${formatCents(MAX_AMOUNT_CENTS)}; this basket comes to ${formatCents(totalCents)}. Please remove some items.`, "amount_too_large");
    }
    // Before anything is held: one checkout must not hold most of a product's stock without paying.
    const overLimit = overUnitLimit(lines, this.deps.maxUnitsPerProduct);
    if (overLimit) return overLimit;
    // Stock: refuse a line beyond what is available before the gateway is asked for anything.
    const short = await this.deps.stock?.check(userId, lines, shown);
    if (short) return short;
    const checkoutId = randomUUID();
    const intent = await this.deps.gateway.createIntent({ amountCents: totalCents, userId, checkoutId });
    const payment: Payment = {
      id: intent.id,
      userId,
      gateway: this.mode,
      amountCents: totalCents,
      basket: lines,
      status: "requires_payment_method",
      clientSecretHash: intent.secretHash,
      created: intent.created,
    };
    // Stock: the units are reserved in the transaction that records the intent; a refusal records nothing.
    const refused = this.deps.stock ? await this.deps.stock.reserve(payment, lines, (trx) => insertPayment(trx, payment)) : await insertPayment(this.deps.db, payment);
    if (refused) {
      // Nothing was recorded: the intent the gateway made for it must not be payable either.
      await this.deps.gateway.cancelIntent(intent.id).catch((error: unknown) => this.deps.log.warn({ err: error, paymentIntent: intent.id }, "could not cancel a refused checkout's intent"));
      return refused;
    }
    this.deps.log.info({ paymentIntent: intent.id, amountCents: totalCents, lines: lines.length }, "payment intent created");
    return { ok: true, value: { clientSecret: intent.clientSecret } };
  }

  private async chargeCard(userId: string, input: { clientSecret: string; card: CardInput }): Promise<PaymentResult<{ paymentIntent: PaymentIntentSummary }>> {
    const cards = this.deps.gateway.cards;
    if (!cards) return fail(404, "Card confirmation happens with Stripe in this shop.");
    const id = cards.intentIdOf(input.clientSecret);
    const stock = this.deps.stock;
    // The payment and, where stock is tracked, its reservations' state in one read.
    const payment: (Payment & { holds?: PaymentHolds }) | null = !id ? null : stock ? await findPaymentWithHolds(this.deps.db, id, stock.holdsCountedAt()) : await findPayment(this.deps.db, id);
    if (!payment || payment.userId !== userId || !cards.secretMatches(input.clientSecret, payment.clientSecretHash)) return NOT_FOUND;
    if (payment.status === "succeeded") return this.alreadySucceeded();
    // Stock: no card is charged for units no longer held.
    if (stock && !(await stock.stillHeld(payment.id, payment.holds))) return fail(409, RESERVATION_EXPIRED, "reservation_expired");
    // Expired unpaid (the reconciler cancelled it): the checkout starts again with a new intent.
    if (payment.status === "canceled") return fail(409, "This payment has expired. Please start the checkout again.", "payment_intent_unexpected_state");
    const outcome = cards.charge(input.card, new Date(this.now()));
    if (!outcome.ok) {
      this.deps.log.info({ paymentIntent: payment.id, code: outcome.code, declineCode: outcome.declineCode }, "card payment declined");
      return { ok: false, status: 402, message: outcome.message, code: outcome.code, declineCode: outcome.declineCode };
    }
    const fulfilment = await this.fulfil(payment, { card: { brand: outcome.brand, last4: outcome.last4 } });
    // Of any number of concurrent confirmations, only the one that changed the payment succeeds.
    if (!fulfilment.changed) return this.alreadySucceeded();
    return { ok: true, value: { paymentIntent: summary(fulfilment.order) } };
  }

  private async completeFromGateway(userId: string, paymentIntentId: string): Promise<PaymentResult<{ order: PaymentIntentSummary }>> {
    const payment = await findPayment(this.deps.db, paymentIntentId);
    if (!payment || payment.userId !== userId) return NOT_FOUND;
    const state = await this.deps.gateway.retrieveIntent(payment.id);
    const order = state && (await this.fulfilFromGateway(payment, state));
    if (!order) return fail(409, "This payment has not succeeded.", "payment_intent_unexpected_state");
    return { ok: true, value: { order: summary(order) } };
  }

  /** POST /api/payment/webhook (Stripe): a signed payment_intent.succeeded fulfils as complete does. */
  async webhook(rawBody: string, signature: string | undefined): Promise<PaymentResult<{ received: true }>> {
    const { gateway } = this.deps;
    if (!gateway.webhooks) return fail(404, "Webhooks are for the Stripe gateway.");
    const parsed = await gateway.webhooks.parse(rawBody, signature);
    if (!parsed.ok) return fail(400, parsed.message);
    const { event } = parsed;
    if (event.type === "payment_succeeded") {
      const payment = await findPayment(this.deps.db, event.intentId);
      if (!payment) this.deps.log.warn({ paymentIntent: event.intentId }, "webhook for a payment intent we did not create; ignored");
      else {
        // The event may be old: ask the gateway for the intent as it is now rather than trusting the payload.
        const state = await gateway.retrieveIntent(event.intentId);
        if (state) await this.fulfilFromGateway(payment, state);
      }
    }
    // charge.refunded, refund.updated…: recorded once by our refund's id, however often replayed.
    if (event.type === "refunds_updated") await this.deps.refunds?.record(event.refunds);
    return { ok: true, value: { received: true } };
  }

  /**
   * The order of a payment the gateway reports succeeded for the same shopper and amount; null
   * otherwise. The reconciler (reconciler.ts) calls it too.
   */
  async fulfilFromGateway(payment: Payment, state: IntentState): Promise<NewOrder | null> {
    if (state.status !== "succeeded") return null;
    if (state.amountCents !== payment.amountCents || (state.userId !== null && state.userId !== payment.userId)) {
      this.deps.log.error({ paymentIntent: payment.id, amountCents: state.amountCents, expected: payment.amountCents }, "payment intent does not match its checkout; not fulfilled");
      return null;
    }
    return (await this.fulfil(payment, { created: state.created })).order;
  }

  /**
   * Marks the payment succeeded and writes its order, in one transaction: both or neither. A
   * payment that had already succeeded changes nothing (`changed: false`), and its order is never
   * written twice (the order's key is the payment intent id).
   */
  private async fulfil(payment: Payment, details: { card?: { brand: string; last4: string }; created?: number }): Promise<{ changed: boolean; order: NewOrder }> {
    const order: NewOrder = { id: payment.id, amountCents: payment.amountCents, basket: payment.basket, created: details.created ?? payment.created };
    const { changed, placed } = await this.deps.db.transaction().execute(async (trx) => {
      // Whether this changed the payment is read after the order's insert, which it goes out with,
      // as does the sale of the held units (StockService.sellWithNextStatement).
      const marked = await markSucceeded(trx, payment.id, { card: details.card, now: this.now() });
      // Stock: the reservation becomes a sale in the same transaction, exactly once.
      const sold = await this.deps.stock?.sellWithNextStatement(trx, payment);
      const placed = await this.deps.orders.place(trx, payment.userId, order);
      const changed = await marked();
      await sold?.(changed);
      return { changed, placed };
    });
    if (placed) {
      this.telemetry.orderWritten();
      this.deps.log.info({ order: order.id, amountCents: order.amountCents }, "order placed");
    }
    return { changed, order };
  }

  /** Counts how a checkout step ended, for the operators (see CheckoutOutcome); an exception counts as failed. */
  private async counted<T>(success: "created" | "succeeded", step: () => Promise<PaymentResult<T>>): Promise<PaymentResult<T>> {
    let result: PaymentResult<T>;
    try {
      result = await step();
    } catch (error) {
      this.telemetry.checkout("failed");
      throw error;
    }
    this.telemetry.checkout(checkoutOutcome(result, success));
    return result;
  }

  private alreadySucceeded(): PaymentFailure {
    return fail(409, "This payment has already been completed.", "payment_intent_unexpected_state");
  }

  /**
   * The lines priced from the catalogue: the server's prices, titles and pictures, never the
   * browser's; with `shown`, the units available of each product as the catalogue shows them.
   */
  private async price(items: Array<{ id: number; quantity: number }>): Promise<PaymentResult<{ lines: BasketLine[]; shown: Map<number, number | null | undefined> }>> {
    if (new Set(items.map((item) => item.id)).size !== items.length) return fail(400, "Each product may appear only once in the basket.");
    try {
      const products = new Map((await this.deps.catalogue.byIds(items.map((item) => item.id))).map((product) => [product.id, product]));
      const lines: BasketLine[] = [];
      const shown = new Map<number, number | null | undefined>();
      for (const item of items) {
        const product = products.get(item.id);
        if (!product) return fail(422, `Product ${item.id} is not in the catalogue.`, "unknown_product");
        lines.push(lineFrom(product, item.quantity));
        shown.set(product.id, product.stock);
      }
      return { ok: true, value: { lines, shown } };
    } catch (error) {
      if (error instanceof CatalogueUnavailableError) return fail(503, "The catalogue is unavailable; try again shortly.");
      throw error;
    }
  }
}
