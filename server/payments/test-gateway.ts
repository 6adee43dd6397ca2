import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Kysely } from "kysely";
import type { Schema } from "../db/schema.ts";
import type { CreatedIntent, IntentState, PaymentGateway } from "./gateway.ts";
import { findPayment } from "./store.ts";

export const hashSecret = (secret: string): string => createHash("sha256").update(secret).digest("hex");

/** The intent id inside a client secret ("pi_…_secret_…"), as Stripe's are built. */
export const intentIdOf = (clientSecret: string): string | null => /^(pi_[0-9a-f]{24})_secret_[0-9a-f]{32}$/.exec(clientSecret)?.[1] ?? null;

/** True when `clientSecret` is the one whose hash was stored, compared in constant time. */
export function secretMatches(clientSecret: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  const given = Buffer.from(hashSecret(clientSecret), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * The built-in gateway: no keys, no network. Its intents live in our own payments table (the
 * service records them); card outcomes follow Stripe's test cards (lib/card.ts).
 */
export class TestGateway implements PaymentGateway {
  readonly kind = "test" as const;

  constructor(
    private readonly db: Kysely<Schema>,
    private readonly now: () => number = Date.now,
  ) {}

  async createIntent(): Promise<CreatedIntent> {
    const id = `pi_${randomBytes(12).toString("hex")}`;
    return { id, clientSecret: `${id}_secret_${randomBytes(16).toString("hex")}`, created: this.now() };
  }

  async retrieveIntent(id: string): Promise<IntentState | null> {
    const payment = await findPayment(this.db, id);
    return payment && { id, status: payment.status, amount: payment.amount, created: payment.created, userId: payment.userId };
  }
}
