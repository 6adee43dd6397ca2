import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Schema } from "../db/schema.ts";
import type { CardConfirmation, CreatedIntent, IntentState, PaymentGateway, RefundOutcome } from "./gateway.ts";
import { cancelUnpaid, findPayment } from "./store.ts";
import { chargeOutcome } from "./test-cards.ts";

const hashSecret = (secret: string): string => createHash("sha256").update(secret).digest("hex");

/**
 * The built-in gateway: no keys, no network. Its intents live in our own payments table (the
 * service records them with the secret's hash this gateway gives); the card is confirmed on our
 * server with Stripe's test-card outcomes (test-cards.ts).
 */
export class TestGateway implements PaymentGateway {
  readonly kind = "test" as const;
  readonly checkout = { gateway: "test" } as const;
  /** Nothing sends it notifications. */
  readonly webhooks = null;

  readonly cards: CardConfirmation = {
    /** The intent id inside a client secret ("pi_…_secret_…"), as Stripe's are built. */
    intentIdOf: (clientSecret) => /^(pi_[0-9a-f]{24})_secret_[0-9a-f]{32}$/.exec(clientSecret)?.[1] ?? null,
    /** True when `clientSecret` is the one whose hash was kept, compared in constant time. */
    secretMatches(clientSecret, secretHash) {
      if (!secretHash) return false;
      const given = Buffer.from(hashSecret(clientSecret), "hex");
      const kept = Buffer.from(secretHash, "hex");
      return given.length === kept.length && timingSafeEqual(given, kept);
    },
    charge: chargeOutcome,
  };

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly now: () => number = Date.now,
  ) {}

  async createIntent(): Promise<CreatedIntent> {
    const id = `pi_${randomBytes(12).toString("hex")}`;
    const clientSecret = `${id}_secret_${randomBytes(16).toString("hex")}`;
    return { id, clientSecret, created: this.now(), secretHash: hashSecret(clientSecret) };
  }

  async retrieveIntent(id: string): Promise<IntentState | null> {
    const payment = await findPayment(this.db, id);
    return payment && { id, status: payment.status, amountCents: payment.amountCents, created: payment.created, userId: payment.userId };
  }

  /** Its intents are our rows: the row in flight is all there is to know. */
  async recheckIntent(recorded: IntentState): Promise<IntentState> {
    return recorded;
  }

  /** Our own row: cancelled unless it has been paid. */
  async cancelIntent(id: string): Promise<void> {
    const canceled = await cancelUnpaid(this.db, [id], this.now());
    // An intent never recorded (its checkout was refused) exists nowhere: nothing to cancel. A paid one cannot be.
    if (canceled === 0 && (await findPayment(this.db, id))?.status === "succeeded") {
      throw new Error(`payment intent ${id} cannot be cancelled: it is paid`);
    }
  }

  /** Our own rows, in the caller's transaction: cancelled unless they have been paid. */
  async cancelWithin(trx: Transaction<Schema>, ids: string[], now: number): Promise<void> {
    if (ids.length === 0) return;
    await cancelUnpaid(trx, ids, now, "test");
  }

  /** Refunds at once; the same idempotency key names the same refund, as Stripe's would. */
  async refund({ idempotencyKey }: { idempotencyKey: string }): Promise<RefundOutcome> {
    return { ok: true, id: `re_${hashSecret(idempotencyKey).slice(0, 24)}`, status: "succeeded" };
  }
}
