import { describe, expect, it } from "vitest";
import { formatCents } from "../../lib/basket.ts";
import { jsonPost, signUp, TEST_ORIGIN, type testApp } from "../../test/support/app.ts";
import { parseMetrics, sampleValue } from "../../test/support/prometheus-text.ts";
import { checkout, priceCents } from "../../test/support/checkout.ts";
import { cleanupAfterEach, type freshDatabase, testEngines } from "../../test/support/database.ts";
import { eventually } from "../../test/support/poll.ts";
import { postRefund, refundShop } from "../../test/support/refunds.ts";
import type { Order } from "../orders/order.ts";

type App = Awaited<ReturnType<typeof testApp>>["app"];
type Answer = { refund: { id: string; amount: number; status: string } };

// Refunds from the back office. Exactly once per Idempotency-Key, never past what was paid (in
// total or per line), restock, the audit log, the shopper's mail and their order list.

describe.each(testEngines())("refunds on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  const setup = () => refundShop(engine, cleanup);

  /** Ada buys 2 of product 2 and 1 of product 9; the order's id. */
  async function placeOrder(app: App, cookie: string): Promise<string> {
    const { paid, orderId } = await checkout(app.request, { origin: TEST_ORIGIN, cookie, items: [{ id: 2, amount: 2 }, { id: 9, amount: 1 }] });
    expect(paid?.status).toBe(200);
    return orderId!;
  }

  const TOTAL = priceCents(2) * 2 + priceCents(9);

  const count = async (database: Awaited<ReturnType<typeof freshDatabase>>, table: "refunds" | "audit_log" | "mail_outbox", where?: [string, string]) => {
    let query = database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n"));
    if (where) query = query.where(where[0] as never, "=", where[1] as never);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };

  it("gives one refund and the same answer to 100 concurrent requests with the same Idempotency-Key", async () => {
    const { app, services, database, admin, ada } = await setup();
    const orderId = await placeOrder(app, ada);
    const body = { lines: [{ id: 2, amount: 1 }], reason: "Arrived broken", restock: false };
    const responses = await Promise.all(Array.from({ length: 100 }, () => postRefund(app, admin, orderId, body, "refund-key-1")));
    expect(responses.map((r) => r.status)).toEqual(Array(100).fill(200));
    const answers = (await Promise.all(responses.map((r) => r.json()))) as Answer[];
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual({ refund: { id: expect.any(String), amount: priceCents(2), status: "succeeded" } });
    // A retry later gets the same answer too.
    expect(await (await postRefund(app, admin, orderId, body, "refund-key-1")).json()).toEqual(answers[0]);

    expect(await count(database, "refunds")).toBe(1);
    expect(await count(database, "audit_log", ["action", "order.refund"])).toBe(1);
    const { entries } = (await (await app.request("/api/admin/audit", { headers: { cookie: admin } })).json()) as { entries: unknown[] };
    expect(entries[0]).toMatchObject({
      actor: "boss@example.com",
      action: "order.refund",
      target: `order:${orderId}`,
      before: { status: "paid", refunded: "$0.00" },
      after: { status: "partially_refunded", refunded: formatCents(priceCents(2)), refund: formatCents(priceCents(2)), reason: "Arrived broken", restock: false },
    });
    expect(await count(database, "mail_outbox", ["kind", "refund"])).toBe(1);
    // Counted once, however often it was asked for.
    const samples = parseMetrics(await services.metrics.registry.metrics());
    expect(["created", "succeeded", "failed"].map((outcome) => sampleValue(samples, "storefront_refunds_total", { outcome }))).toEqual([1, 1, 0]);
    const { orders } = (await (await app.request("/api/orders", { headers: { cookie: ada } })).json()) as { orders: Order[] };
    expect(orders).toEqual([expect.objectContaining({ id: orderId, status: "partially_refunded", refunded: priceCents(2) })]);

    // The shopper's mail.
    await services.mail.worker.drain();
    const mail = await database.db.selectFrom("mail_outbox").select(["recipient", "status", "payload"]).where("kind", "=", "refund").executeTakeFirstOrThrow();
    expect(mail).toMatchObject({ recipient: "ada@example.com", status: "sent" });
    expect(JSON.parse(mail.payload)).toMatchObject({ orderId, amount: priceCents(2) });
  });

  it("refuses the same key with other parameters, as Stripe does", async () => {
    const { app, admin, ada } = await setup();
    const orderId = await placeOrder(app, ada);
    expect((await postRefund(app, admin, orderId, { lines: [{ id: 2, amount: 1 }], reason: "Broken", restock: false }, "k")).status).toBe(200);
    const other = await postRefund(app, admin, orderId, { lines: [{ id: 9, amount: 1 }], reason: "Broken", restock: false }, "k");
    expect(other.status).toBe(422);
    expect(((await other.json()) as { error: string }).error).toMatch(/^Keys for idempotent requests can only be used with the same parameters/);
  });

  it("never refunds more than was paid: per line, in total, and nothing once all is refunded (422 with a message)", async () => {
    const { app, database, admin, ada } = await setup();
    const orderId = await placeOrder(app, ada);
    const tooMany = await postRefund(app, admin, orderId, { lines: [{ id: 2, amount: 3 }], reason: "Too many", restock: false });
    expect(tooMany.status).toBe(422);
    expect(await tooMany.json()).toEqual({ error: `Only 2 of 2 units of “${await titleOf(app, 2)}” can still be refunded; this refund asks for 3.` });
    expect((await postRefund(app, admin, orderId, { lines: [{ id: 2, amount: 2 }], reason: "Both broken", restock: false })).status).toBe(200);
    // The line is used up: one more unit of it is refused, even though the order has money left.
    const again = await postRefund(app, admin, orderId, { lines: [{ id: 2, amount: 1 }], reason: "Again", restock: false });
    expect(again.status).toBe(422);
    expect(((await again.json()) as { error: string }).error).toMatch(/^Only 0 of 2 units of/);
    // No lines: the whole remaining amount.
    const rest = await postRefund(app, admin, orderId, { reason: "Order cancelled", restock: false });
    expect(await rest.json()).toEqual({ refund: expect.objectContaining({ amount: TOTAL - priceCents(2) * 2, status: "succeeded" }) });
    const none = await postRefund(app, admin, orderId, { reason: "Once more", restock: false });
    expect(none.status).toBe(422);
    expect(await none.json()).toEqual({ error: "Nothing is left to refund of this order." });
    const row = await database.db.selectFrom("orders").select(["refunded", "status", "amount"]).where("id", "=", orderId).executeTakeFirstOrThrow();
    expect(row).toEqual({ refunded: TOTAL, status: "refunded", amount: TOTAL });
    // A line the order does not have, and a malformed body, change nothing.
    expect((await postRefund(app, admin, orderId, { lines: [{ id: 5, amount: 1 }], reason: "x", restock: false })).status).toBe(422);
    expect((await postRefund(app, admin, orderId, { lines: [{ id: 2, amount: 0 }], reason: "x", restock: false })).status).toBe(400);
    expect((await postRefund(app, admin, orderId, { reason: " ", restock: false })).status).toBe(400);
    expect(await count(database, "refunds")).toBe(2);
  });

  it("lets concurrent refunds with different keys together take no more than was paid", async () => {
    const { app, database, admin, ada } = await setup();
    const orderId = await placeOrder(app, ada);
    // Twenty admins' clicks at once, each for everything left: one wins, the others are told there is nothing left.
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => postRefund(app, admin, orderId, { reason: `click ${i}`, restock: false })));
    expect(responses.map((r) => r.status).sort()).toEqual([200, ...Array(19).fill(422)]);
    const row = await database.db.selectFrom("orders").select(["refunded"]).where("id", "=", orderId).executeTakeFirstOrThrow();
    expect(row.refunded).toBe(TOTAL);
  });

  it("returns the units to stock with restock, and only then", async () => {
    const { app, database, admin, ada } = await setup();
    const stock = async (id: number) => (await database.db.selectFrom("products").select("stock").where("id", "=", id).executeTakeFirstOrThrow()).stock;
    const before = await stock(2);
    const orderId = await placeOrder(app, ada);
    expect(await stock(2)).toBe(before - 2);
    await postRefund(app, admin, orderId, { lines: [{ id: 2, amount: 1 }], reason: "Kept", restock: false });
    expect(await stock(2)).toBe(before - 2);
    await postRefund(app, admin, orderId, { lines: [{ id: 2, amount: 1 }], reason: "Returned", restock: true });
    expect(await stock(2)).toBe(before - 1);
    // The catalogue the shop serves hears of it (the catalogue-changed event) and says so too.
    const served = async () => ((await (await app.request("/api/catalogue/products/2")).json()) as { stock: number }).stock;
    expect(await eventually(served, (n) => n === before - 1)).toBe(before - 1);
  });

  it("lists every customer's orders for the back office, by status and email, and shows one in full", async () => {
    const { app, admin, ada } = await setup();
    const bob = await signUp(app, "bob@example.com");
    const adas = await placeOrder(app, ada);
    const bobs = await placeOrder(app, bob);
    await postRefund(app, admin, adas, { lines: [{ id: 9, amount: 1 }], reason: "Late", restock: false });
    const list = async (query: string) => (await (await app.request(`/api/admin/orders${query}`, { headers: { cookie: admin } })).json()) as { orders: Array<{ id: string; email: string; status: string }>; next: string | null };
    expect((await list("")).orders.map((o) => o.id).sort()).toEqual([adas, bobs].sort());
    expect((await list("?status=partially_refunded")).orders).toEqual([expect.objectContaining({ id: adas, email: "ada@example.com", status: "partially_refunded" })]);
    expect((await list("?status=paid")).orders.map((o) => o.id)).toEqual([bobs]);
    expect((await list("?email=BOB@example.com")).orders.map((o) => o.id)).toEqual([bobs]);
    const first = await list("?limit=1");
    expect(first.orders).toHaveLength(1);
    const second = await list(`?limit=1&before=${encodeURIComponent(first.next!)}`);
    expect([...first.orders, ...second.orders].map((o) => o.id).sort()).toEqual([adas, bobs].sort());
    expect(second.next).toBeNull();
    expect((await app.request("/api/admin/orders?status=lost", { headers: { cookie: admin } })).status).toBe(400);

    const detail = (await (await app.request(`/api/admin/orders/${adas}`, { headers: { cookie: admin } })).json()) as {
      order: { customer: { email: string }; payment: unknown; basket: unknown[]; linesRefunded: Record<string, number> };
      refunds: Array<{ amount: number; reason: string; status: string; actor: string }>;
      timeline: Array<{ text: string }>;
    };
    expect(detail.order.customer.email).toBe("ada@example.com");
    expect(detail.order.payment).toEqual({ gateway: "test", brand: "visa", last4: "4242" });
    expect(detail.order.linesRefunded).toEqual({ 2: 0, 9: 1 });
    expect(detail.refunds).toEqual([expect.objectContaining({ amount: priceCents(9), reason: "Late", status: "succeeded", actor: "boss@example.com" })]);
    expect(detail.timeline.map((entry) => entry.text)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Paid \$.* by visa ending in 4242$/), "Order written", expect.stringMatching(/^Refund of \$.* asked by boss@example\.com: Late$/), expect.stringMatching(/^Refund of \$.* succeeded$/)]),
    );
    expect((await app.request("/api/admin/orders/pi_nothing", { headers: { cookie: admin } })).status).toBe(404);
    expect((await postRefund(app, admin, "pi_nothing", { reason: "x", restock: false })).status).toBe(404);
  });

  it("answers 404 to customers and anonymous visitors, and asks for an Idempotency-Key", async () => {
    const { app, database, admin, ada } = await setup();
    const orderId = await placeOrder(app, ada);
    const visitors: Array<Record<string, string>> = [{}, { cookie: ada }];
    for (const headers of visitors) {
      for (const path of ["/api/admin/orders", `/api/admin/orders/${orderId}`, "/api/admin/mail"]) {
        const response = await app.request(path, { headers });
        expect(response.status, path).toBe(404);
        expect(await response.json()).toEqual({ error: `No API endpoint GET ${path}.` });
      }
      const post = await app.request(`/api/admin/orders/${orderId}/refunds`, jsonPost({ reason: "x", restock: false }, { ...headers, "idempotency-key": "k" }));
      expect(post.status).toBe(404);
    }
    const keyless = await app.request(`/api/admin/orders/${orderId}/refunds`, jsonPost({ reason: "x", restock: false }, { cookie: admin }));
    expect(keyless.status).toBe(400);
    // From another site: refused before it is read.
    const foreign = await app.request(`/api/admin/orders/${orderId}/refunds`, { ...jsonPost({ reason: "x", restock: false }, { cookie: admin, "idempotency-key": "k2" }), headers: { "content-type": "application/json", origin: "https://evil.example", cookie: admin, "idempotency-key": "k2" } });
    expect(foreign.status).toBe(403);
    expect(await count(database, "refunds")).toBe(0);
  });

  it("lists the mail outbox for the back office, without payloads", async () => {
    const { app, services, admin, ada } = await setup();
    await placeOrder(app, ada);
    const page = async (query = "") => (await (await app.request(`/api/admin/mail${query}`, { headers: { cookie: admin } })).json()) as { messages: Array<Record<string, unknown>> };
    // Newest first: the order's confirmation, then the mails confirming the two sign-ups' addresses.
    const listed = (await page()).messages;
    expect(listed[0]).toEqual(expect.objectContaining({ kind: "order_confirmation", recipient: "ada@example.com", status: "pending", attempts: 0 }));
    expect(listed.slice(1).map((m) => `${String(m.kind)} ${String(m.recipient)}`).sort()).toEqual(["email_verification ada@example.com", "email_verification boss@example.com"]);
    for (const message of listed) expect(message).not.toHaveProperty("payload");
    await services.mail.worker.drain();
    expect((await page("?status=sent")).messages).toHaveLength(3);
    expect((await page("?status=pending")).messages).toHaveLength(0);
    // A page at a time, newest first, each message once.
    await postRefund(app, admin, await placeOrder(app, ada), { reason: "Late", restock: false });
    const first = (await page("?limit=3")) as { messages: Array<{ id: string; kind: string }>; next: string };
    const second = (await page(`?limit=3&before=${encodeURIComponent(first.next)}`)) as { messages: Array<{ id: string; kind: string }>; next: string | null };
    expect([...first.messages, ...second.messages].map((m) => m.kind).sort()).toEqual(["email_verification", "email_verification", "order_confirmation", "order_confirmation", "refund"]);
    expect(second.messages).toHaveLength(2);
    expect(second.next).toBeNull();
    expect(new Set([...first.messages, ...second.messages].map((m) => m.id)).size).toBe(5);
    expect((await app.request("/api/admin/mail?before=nonsense", { headers: { cookie: admin } })).status).toBe(400);
  });
});

async function titleOf(app: App, id: number): Promise<string> {
  return ((await (await app.request(`/api/catalogue/products/${id}`)).json()) as { title: string }).title;
}
