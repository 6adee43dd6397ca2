import { randomUUID } from "node:crypto";
import type { Engine } from "../../server/db/database.ts";
import { signUpAdmin } from "./admin.ts";
import { jsonPost, signUp, testApp } from "./app.ts";
import { freshDatabase } from "./database.ts";

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

/**
 * The shop on a fresh database of `engine` with its own catalogue (so stock is tracked and a
 * restock can be seen), an admin and the shopper ada; everything closed and dropped through `cleanup`.
 */
export async function refundShop(engine: Engine, cleanup: (step: () => Promise<void>) => void) {
  const database = await freshDatabase(engine);
  const { app, services } = await testApp({ database, catalogue: "database" });
  cleanup(async () => {
    services.orderFeed.closeAll();
    await services.orderEvents.close();
    await services.catalogueEvents.close();
    await database.drop();
  });
  const admin = await signUpAdmin(app, services);
  const ada = await signUp(app, "ada@example.com");
  return { app, services, database, admin, ada };
}
