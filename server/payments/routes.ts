import { type Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../http/env.ts";
import { jsonBody } from "../api-edge/json-body.ts";
import { jsonResponse } from "../api-edge/json-response.ts";
import { HttpError, TooManyRequests } from "../http-error.ts";
import type { PaymentFailure, PaymentResult, PaymentsService } from "./service.ts";

const wholeAtLeast = (min: number, what: string) => z.number({ error: `${what} must be a number` }).int(`${what} must be a whole number`).min(min, `${what} must be at least ${min}`);

const createBody = z.object({
  items: z
    .array(z.object({ id: wholeAtLeast(1, "id"), amount: wholeAtLeast(1, "amount").max(999, "amount must be at most 999") }), {
      error: "items must be a list of { id, amount }",
    })
    .min(1, "The basket is empty.")
    .max(100, "A basket holds at most 100 lines."),
  total: wholeAtLeast(0, "total (in cents)"),
});

const confirmBody = z.object({
  clientSecret: z.string().min(1).max(200),
  card: z.object({
    number: z.string().max(40),
    expMonth: z.number().int(),
    expYear: z.number().int(),
    cvc: z.string().max(10),
    postalCode: z.string().max(20),
  }),
});

const completeBody = z.object({ paymentIntentId: z.string().min(1).max(255) });

/** /api/payment: create, confirm (test gateway), complete, webhook (Stripe). */
export function paymentRoutes(payments: PaymentsService): Hono<AppEnv> {
  const api = new Hono<AppEnv>();

  const signedIn = (user: { uid: string } | null) => {
    if (!user) throw new HttpError(401, "You must log in to pay");
    return user.uid;
  };

  const respond = <T>(c: Context, result: PaymentResult<T>) => {
    if (result.ok) return jsonResponse(c, result.value);
    return jsonResponse(c, errorBody(result), result.status);
  };

  api.post("/create", async (c) => {
    const uid = signedIn(c.get("user"));
    const retryAfter = payments.admitCreate(uid);
    if (retryAfter !== null) throw new TooManyRequests(`Too many payment attempts. Please try again in ${retryAfter} seconds.`, retryAfter);
    const { items, total } = await jsonBody(c, createBody);
    // The body names a line's quantity `amount` (spec section 3).
    return respond(c, await payments.create(uid, { items: items.map(({ id, amount }) => ({ id, quantity: amount })), total }));
  });

  api.post("/confirm", async (c) => {
    const uid = signedIn(c.get("user"));
    return respond(c, await payments.confirm(uid, await jsonBody(c, confirmBody)));
  });

  api.post("/complete", async (c) => {
    const uid = signedIn(c.get("user"));
    return respond(c, await payments.complete(uid, (await jsonBody(c, completeBody)).paymentIntentId));
  });

  // Stripe calls this with no session: the signature over the raw body is what it is checked by.
  api.post("/webhook", async (c) => respond(c, await payments.webhook(await c.req.text(), c.req.header("stripe-signature"))));

  return api;
}

/** Stock and unit-limit refusals, answered in Stripe's shape ({ error: { message, code } }). */
const NESTED_CODES = new Set(["insufficient_stock", "reservation_expired", "limit_exceeded"]);

/** Card failures, stock and unit-limit refusals in Stripe's shape ({ error: { message, code } }); the rest as every other /api error. */
function errorBody(failure: PaymentFailure) {
  if (failure.code && NESTED_CODES.has(failure.code)) return { error: { message: failure.message, code: failure.code } };
  if (failure.status === 402) return { error: { message: failure.message, code: failure.code, ...(failure.declineCode ? { decline_code: failure.declineCode } : {}) } };
  return { error: failure.message, ...(failure.code ? { code: failure.code } : {}) };
}
