import { inject, type TestContext } from "vitest";
import products from "../../catalogue/products.json" with { type: "json" };
import type { CardInput } from "../../lib/card.ts";

/** Stripe's test card that pays (README, Payments); the others differ only in the number. */
export const TEST_CARD: CardInput = { number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123", postalCode: "1000" };

/** An embedded product's price in integer cents, as the server prices it. */
export const priceCents = (id: number): number => Math.round(products.find((p) => p.id === id)!.price * 100);

/** How a test reaches the shop: the in-process app (`app.request`) or a started server (`fetch`). */
export type Send = (path: string, init: RequestInit) => Response | Promise<Response>;

/** A Send for a started server (or nginx in front of several) at `base`. */
export const over = (base: string): Send => (path, init) => fetch(`${base}${path}`, init);

/** A same-origin JSON POST as the shop's own pages send them. */
export const postJson = (origin: string, body: unknown, cookie?: string): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", origin, ...(cookie ? { cookie } : {}) },
  body: JSON.stringify(body),
});

/** Registers a shopper through better-auth's route; returns the session cookie to send. */
export async function signUpAt(send: Send, origin: string, email: string, password = "correct horse"): Promise<string> {
  const response = await send("/api/auth/sign-up/email", postJson(origin, { email, password, name: email }));
  if (response.status !== 200) throw new Error(`sign-up of ${email} failed with ${response.status}: ${await response.text()}`);
  const cookie = response.headers.getSetCookie().find((c) => c.includes("session_token="));
  if (!cookie) throw new Error("sign-up gave no session cookie");
  return cookie.split(";")[0]!;
}

export interface Checkout {
  created: Response;
  clientSecret: string | null;
  /** The confirmation's answer; null when create refused (then nothing was confirmed). */
  paid: Response | null;
  /** The paid order's id (its payment intent's), or null when it was not paid. */
  orderId: string | null;
}

/**
 * A whole checkout as the payment page makes it: create the intent for `items` (priced from the
 * embedded catalogue), then confirm it with `card`. Nothing is asserted here: the caller checks
 * what it expects of each answer.
 */
export async function checkout(
  send: Send,
  { origin, cookie, items, card = TEST_CARD }: { origin: string; cookie: string; items: Array<{ id: number; amount: number }>; card?: CardInput | Record<string, unknown> },
): Promise<Checkout> {
  const total = items.reduce((sum, item) => sum + priceCents(item.id) * item.amount, 0);
  const created = await send("/api/payment/create", postJson(origin, { items, total }, cookie));
  const clientSecret = created.status === 200 ? ((await created.json()) as { clientSecret: string }).clientSecret : null;
  if (!clientSecret) return { created, clientSecret, paid: null, orderId: null };
  const paid = await send("/api/payment/confirm", postJson(origin, { clientSecret, card }, cookie));
  const orderId = paid.status === 200 ? ((await paid.clone().json()) as { paymentIntent: { id: string } }).paymentIntent.id : null;
  return { created, clientSecret, paid, orderId };
}

export const NO_POSTGRES = "this run covers no PostgreSQL (npm run test:pg does; see the note printed at the start of the run)";

/** The test PostgreSQL server's URL; skips the calling test, saying why, when none answers. */
export function postgresOrSkip(context: TestContext): string {
  const url = inject("postgresUrl");
  if (!url) context.skip(NO_POSTGRES);
  return url!;
}
