import type Stripe from "stripe";
import type { CheckoutMode, CreatedIntent, GatewayEvent, GatewayRefund, IntentState, IntentStatus, PaymentGateway, RefundOutcome, WebhookResult, Webhooks } from "./gateway.ts";

export interface StripeOptions {
  secretKey: string;
  /** What Stripe.js in the browser confirms the card with. */
  publishableKey: string;
  webhookSecret?: string;
  /** Where the Stripe API is; tests point it at a local stub. */
  api?: { host: string; port: number; protocol: "http" | "https" };
}

const STATUSES: readonly IntentStatus[] = [
  "requires_payment_method",
  "requires_confirmation",
  "requires_action",
  "processing",
  "succeeded",
  "canceled",
];

/** Stripe: PaymentIntents created server side, confirmed by Stripe.js in the browser, checked again here. */
export class StripeGateway implements PaymentGateway {
  readonly kind = "stripe" as const;
  /** Stripe.js confirms the card in the browser; our server never sees it. */
  readonly cards = null;
  readonly checkout: CheckoutMode;
  readonly webhooks: Webhooks = { parse: (rawBody, signature) => this.parseWebhook(rawBody, signature) };

  private constructor(
    private readonly options: StripeOptions,
    private readonly stripe: Stripe,
    private readonly sdk: typeof Stripe,
  ) {
    this.checkout = { gateway: "stripe", publishableKey: options.publishableKey };
  }

  /** The SDK is loaded only here: a shop on the test gateway never holds it in memory. */
  static async create(options: StripeOptions): Promise<StripeGateway> {
    const { default: sdk } = await import("stripe");
    const stripe = new sdk(options.secretKey, { maxNetworkRetries: 2, timeout: 10_000, telemetry: false, ...(options.api ?? {}) });
    return new StripeGateway(options, stripe, sdk);
  }

  async createIntent({ amountCents, userId, checkoutId }: { amountCents: number; userId: string; checkoutId: string }): Promise<CreatedIntent> {
    const intent = await this.stripe.paymentIntents.create(
      { amount: amountCents, currency: "usd", allowed_payment_method_types: ["card"], metadata: { user_id: userId, checkout_id: checkoutId } },
      // A retried request (ours or the SDK's) gets the same intent back, never a second one.
      { idempotencyKey: `checkout-${checkoutId}` },
    );
    if (!intent.client_secret) throw new Error(`Stripe gave no client secret for ${intent.id}`);
    return { id: intent.id, clientSecret: intent.client_secret, created: intent.created * 1000, secretHash: null };
  }

  async retrieveIntent(id: string): Promise<IntentState | null> {
    try {
      return toState(await this.stripe.paymentIntents.retrieve(id));
    } catch (error) {
      if (error instanceof this.sdk.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
      throw error;
    }
  }

  recheckIntent(recorded: IntentState): Promise<IntentState | null> {
    return this.retrieveIntent(recorded.id);
  }

  async cancelIntent(id: string): Promise<void> {
    await this.stripe.paymentIntents.cancel(id, { cancellation_reason: "abandoned" });
  }

  /** Stripe's intents are not our rows: they are cancelled at Stripe after the commit (cancelIntent). */
  async cancelWithin(): Promise<void> {}

  /**
   * Stripe's Refunds API, with the idempotency key: a retry (ours, the SDK's, another instance's)
   * gets the same refund. Our refund's id rides in its metadata, so the webhook names it.
   */
  async refund({ paymentId, amountCents, idempotencyKey, reference }: { paymentId: string; amountCents: number; idempotencyKey: string; reference: string }): Promise<RefundOutcome> {
    try {
      const refund = await this.stripe.refunds.create({ payment_intent: paymentId, amount: amountCents, metadata: { refund_id: reference } }, { idempotencyKey });
      return { ok: true, id: refund.id, status: refundStatus(refund.status) };
    } catch (error) {
      // Stripe said no (already refunded, amount too large…): a value. Anything else, including a
      // 409 for the same key still in flight elsewhere, is thrown: the refund stays pending.
      const refused = error instanceof this.sdk.errors.StripeInvalidRequestError && error.statusCode === 400 && error.code !== "idempotency_key_in_use";
      if (refused) return { ok: false, message: error.message };
      throw error;
    }
  }

  /** Checks a webhook's signature against the raw body (never a re-serialised one) and reads the event. */
  private async parseWebhook(rawBody: string, signature: string | undefined): Promise<WebhookResult> {
    if (!this.options.webhookSecret) return { ok: false, message: "Webhooks are not configured (STRIPE_WEBHOOK_SECRET)." };
    if (!signature) return { ok: false, message: "The Stripe-Signature header is missing." };
    try {
      const event = await this.stripe.webhooks.constructEventAsync(rawBody, signature, this.options.webhookSecret);
      return { ok: true, event: gatewayEvent(event) };
    } catch {
      return { ok: false, message: "The webhook signature is invalid or too old." };
    }
  }
}

export function toState(intent: Stripe.PaymentIntent): IntentState {
  return {
    id: intent.id,
    status: STATUSES.includes(intent.status as IntentStatus) ? (intent.status as IntentStatus) : "requires_payment_method",
    amountCents: intent.amount,
    created: intent.created * 1000,
    userId: intent.metadata?.user_id ?? null,
  };
}

/** The notifications the shop acts on: a payment that succeeded, refunds that moved (charge.refunded, refund.*). */
function gatewayEvent(event: Stripe.Event): GatewayEvent {
  switch (event.type) {
    case "payment_intent.succeeded":
      return { type: "payment_succeeded", intentId: event.data.object.id };
    case "charge.refunded":
      return { type: "refunds_updated", refunds: (event.data.object.refunds?.data ?? []).map(toRefund) };
    case "refund.created":
    case "refund.updated":
    case "refund.failed":
      return { type: "refunds_updated", refunds: [toRefund(event.data.object)] };
    default:
      return { type: "other", name: event.type };
  }
}

const toRefund = (refund: Stripe.Refund): GatewayRefund => ({ id: refund.id, reference: refund.metadata?.refund_id ?? null, status: refundStatus(refund.status) });

/** Stripe's refund statuses as ours: failed and canceled give the amount back; the rest are still on their way. */
function refundStatus(status: string | null): GatewayRefund["status"] {
  if (status === "succeeded") return "succeeded";
  return status === "failed" || status === "canceled" ? "failed" : "pending";
}
