import { randomUUID } from "node:crypto";
import { jsonPost, type testApp } from "./app.ts";

type App = Awaited<ReturnType<typeof testApp>>["app"];

export interface RefundBody {
  lines?: Array<{ id: number; amount: number }>;
  reason: string;
  restock: boolean;
}

/** POST /api/admin/orders/{id}/refunds as the back office sends it: same origin, one Idempotency-Key per refund meant. */
export const postRefund = (app: App, cookie: string, orderId: string, body: RefundBody | Record<string, unknown>, key: string = randomUUID()) =>
  app.request(`/api/admin/orders/${orderId}/refunds`, jsonPost(body, { cookie, "idempotency-key": key }));

/** The signed-in account's user id (better-auth's session answer). */
export async function userIdOf(app: App, cookie: string): Promise<string> {
  const session = (await (await app.request("/api/auth/get-session", { headers: { cookie } })).json()) as { user: { id: string } };
  return session.user.id;
}
