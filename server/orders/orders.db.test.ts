import { gunzipSync } from "node:zlib";
import { UNSAFE_decodeViaTurboStream as decodeTurboStream } from "react-router";
import { describe, expect, it } from "vitest";
import products from "../../catalogue/products.json" with { type: "json" };
import { signUpAdmin } from "../../test/support/admin.ts";
import { checkout, priceCents } from "../../test/support/checkout.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { builtPages } from "../../test/support/pages.ts";
import { signUp, TEST_ORIGIN, testApp } from "../../test/support/app.ts";
import { postRefund } from "../../test/support/refunds.ts";
import { parseSse, type SseEvent } from "../../test/support/sse.ts";
import type { OrderJson } from "./order.ts";

type App = Awaited<ReturnType<typeof testApp>>["app"];

const PRICE = priceCents(2);

/** Pays for one of product 2 as the shopper with `cookie`; returns the order id. */
async function placeOrder(app: App, cookie: string): Promise<string> {
  const { paid, orderId } = await checkout(app.request, { origin: TEST_ORIGIN, cookie, items: [{ id: 2, amount: 1 }] });
  expect(paid?.status).toBe(200);
  return orderId!;
}

/** Reads an SSE response as it arrives; `next(match)` resolves with the first matching event. */
function sseReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const seen: SseEvent[] = [];
  let buffer = "";
  // A read that outlived a wait is kept for the next one, so no chunk is ever dropped.
  let pending: ReturnType<typeof reader.read> | null = null;
  async function next(match: (event: SseEvent) => boolean, timeoutMs = 5_000): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = seen.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event within ${timeoutMs} ms; saw ${JSON.stringify(seen)}`);
      pending ??= reader.read();
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([pending, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), left)))]);
      clearTimeout(timer);
      if (chunk === null) continue;
      pending = null;
      if (chunk.done) throw new Error(`stream ended; saw ${JSON.stringify(seen)}`);
      const parsed = parseSse(buffer + decoder.decode(chunk.value, { stream: true }));
      buffer = parsed.rest;
      seen.push(...parsed.events);
    }
  }
  return { seen, next, cancel: () => reader.cancel() };
}

const orderEvent = (id: string) => (event: SseEvent) => event.event === "order" && (JSON.parse(event.data) as OrderJson).id === id;

describe.each(testEngines())("orders on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup(options: { ssr?: boolean } = {}) {
    const database = await freshDatabase(engine);
    const { app, services } = await testApp({ database, ssr: options.ssr ? await builtPages() : undefined });
    cleanup(async () => {
      services.orderFeed.closeAll();
      await services.orderEvents.close();
      await database.drop();
    });
    if ("ready" in services.orderEvents) await (services.orderEvents as { ready: Promise<void> }).ready;
    const alice = await signUp(app, "alice@example.com");
    const bob = await signUp(app, "bob@example.com");
    return { app, services, database, alice, bob };
  }

  it("answers 401 to anonymous requests for the list, one order and the stream", async () => {
    const { app } = await setup();
    for (const path of ["/api/orders", "/api/orders/pi_x", "/api/orders/stream"]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(401);
      expect(await response.json()).toEqual({ error: "You must log in to access your orders" });
    }
  });

  it("lists a shopper's own orders newest first, with id, amount in cents, created and the basket snapshot", async () => {
    const { app, alice, bob } = await setup();
    const first = await placeOrder(app, alice);
    const second = await placeOrder(app, alice);
    const response = await app.request("/api/orders", { headers: { cookie: alice } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const { orders, next } = (await response.json()) as { orders: OrderJson[]; next: string | null };
    const newestFirst = [...orders].sort((x, y) => y.created - x.created || (y.id < x.id ? -1 : 1));
    expect(orders).toEqual(newestFirst);
    expect(new Set(orders.map((o) => o.id))).toEqual(new Set([first, second]));
    expect(orders[0]!.created).toBeGreaterThanOrEqual(orders[1]!.created);
    expect(orders[0]).toMatchObject({ amount: PRICE, basket: [{ id: 2, amount: 1, priceCents: PRICE }] });
    expect(next).toBeNull();

    // Bob sees none of them: not in his list, not one by one.
    const bobs = (await (await app.request("/api/orders", { headers: { cookie: bob } })).json()) as { orders: OrderJson[] };
    expect(bobs.orders).toEqual([]);
    expect((await app.request(`/api/orders/${first}`, { headers: { cookie: bob } })).status).toBe(404);
    const own = await app.request(`/api/orders/${first}`, { headers: { cookie: alice } });
    expect(((await own.json()) as { order: OrderJson }).order.id).toBe(first);
  });

  it("pages through 1,000 orders with cursors that are disjoint and complete, ties included", async () => {
    const { app, database, alice } = await setup();
    const uid = ((await (await app.request("/api/auth/get-session", { headers: { cookie: alice } })).json()) as { user: { id: string } }).user.id;
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      id: `pi_bulk${String(i).padStart(5, "0")}`,
      user_id: uid,
      amount: 100 + i,
      basket: "[]",
      // Every created time is shared by four orders, so the id must break ties.
      created: 1_700_000_000_000 + Math.floor(i / 4) * 1000,
      placed: 1_700_000_000_000,
    }));
    for (let i = 0; i < rows.length; i += 250) await database.db.insertInto("orders").values(rows.slice(i, i + 250)).execute();

    const seen: OrderJson[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=50&before=${encodeURIComponent(cursor)}` : "?limit=50";
      const page = (await (await app.request(`/api/orders${query}`, { headers: { cookie: alice } })).json()) as { orders: OrderJson[]; next: string | null };
      expect(page.orders.length).toBeLessThanOrEqual(50);
      seen.push(...page.orders);
      cursor = page.next;
      pages++;
    } while (cursor && pages < 100);
    expect(pages).toBe(20);
    expect(seen).toHaveLength(1000);
    expect(new Set(seen.map((o) => o.id)).size).toBe(1000);
    const expected = [...rows].sort((a, b) => b.created - a.created || (b.id < a.id ? -1 : 1)).map((r) => r.id);
    expect(seen.map((o) => o.id)).toEqual(expected);
  });

  it.each(["?limit=0", "?limit=51", "?limit=abc", "?before=garbage", "?before=1.2.3%00"])("refuses %s with a 400", async (query) => {
    const { app, alice } = await setup();
    const response = await app.request(`/api/orders${query}`, { headers: { cookie: alice } });
    expect(response.status).toBe(400);
  });

  it("streams a new order to its shopper's open streams at once, and never to anyone else's", async () => {
    const { app, alice, bob } = await setup();
    const aliceStream = await app.request("/api/orders/stream", { headers: { cookie: alice } });
    expect(aliceStream.headers.get("content-type")).toBe("text/event-stream");
    expect(aliceStream.headers.get("x-accel-buffering")).toBe("no");
    const secondTab = await app.request("/api/orders/stream", { headers: { cookie: alice } });
    const bobStream = await app.request("/api/orders/stream", { headers: { cookie: bob } });
    const a = sseReader(aliceStream);
    const a2 = sseReader(secondTab);
    const b = sseReader(bobStream);
    await Promise.all([a.next((e) => e.event === "ready"), a2.next((e) => e.event === "ready"), b.next((e) => e.event === "ready")]);

    const id = await placeOrder(app, alice);
    const event = await a.next(orderEvent(id));
    expect(JSON.parse(event.data)).toMatchObject({ id, amount: PRICE, basket: [{ id: 2 }] });
    expect(event.id).toMatch(new RegExp(`^\\d{13}\\.${id}$`));
    await a2.next(orderEvent(id));

    const bobsOwn = await placeOrder(app, bob);
    await b.next(orderEvent(bobsOwn));
    expect(b.seen.some((e) => e.event === "order" && (JSON.parse(e.data) as OrderJson).id === id)).toBe(false);
    expect(a.seen.filter((e) => e.event === "order")).toHaveLength(1);
    await Promise.all([a.cancel(), a2.cancel(), b.cancel()]);
  });

  it("sends a refunded order again as order-updated, to its shopper's streams only, with status and refunded", async () => {
    const { app, services, alice, bob } = await setup();
    const admin = await signUpAdmin(app, services);
    const id = await placeOrder(app, alice);
    const a = sseReader(await app.request("/api/orders/stream", { headers: { cookie: alice } }));
    const b = sseReader(await app.request("/api/orders/stream", { headers: { cookie: bob } }));
    await Promise.all([a.next((e) => e.event === "ready"), b.next((e) => e.event === "ready")]);
    expect((await postRefund(app, admin, id, { reason: "Broken", restock: false })).status).toBe(200);
    const updated = await a.next((e) => e.event === "order-updated");
    expect(JSON.parse(updated.data)).toEqual(expect.objectContaining({ id, amount: PRICE, status: "refunded", refunded: PRICE }));
    // No id: a reconnecting feed still resumes from the last order placed.
    expect(updated.id).toBeUndefined();
    expect(b.seen.some((e) => e.event === "order-updated")).toBe(false);
    // The list and the one order say so too.
    const { orders } = (await (await app.request("/api/orders", { headers: { cookie: alice } })).json()) as { orders: OrderJson[] };
    expect(orders.map(({ status, refunded }) => ({ status, refunded }))).toEqual([{ status: "refunded", refunded: PRICE }]);
    const one = (await (await app.request(`/api/orders/${id}`, { headers: { cookie: alice } })).json()) as { order: OrderJson };
    expect(one.order).toMatchObject({ status: "refunded", refunded: PRICE });
    await Promise.all([a.cancel(), b.cancel()]);
  });

  it("catches a reconnecting stream up from Last-Event-ID, without what it already had", async () => {
    const { app, alice } = await setup();
    const stream = sseReader(await app.request("/api/orders/stream", { headers: { cookie: alice } }));
    await stream.next((e) => e.event === "ready");
    const first = await placeOrder(app, alice);
    const lastId = (await stream.next(orderEvent(first))).id!;
    await stream.cancel();

    // Orders placed while the connection was down.
    const missed = [await placeOrder(app, alice), await placeOrder(app, alice)];
    const again = sseReader(await app.request("/api/orders/stream", { headers: { cookie: alice, "last-event-id": lastId } }));
    for (const id of missed) await again.next(orderEvent(id));
    const ids = again.seen.filter((e) => e.event === "order").map((e) => (JSON.parse(e.data) as OrderJson).id);
    // The catch-up sends what was missed, and not the order the client already had.
    expect(ids).toEqual(missed);
    await again.cancel();
  });

  it("ends open streams at once when the feed closes (shutdown)", async () => {
    const { app, services, alice } = await setup();
    const stream = sseReader(await app.request("/api/orders/stream", { headers: { cookie: alice } }));
    await stream.next((e) => e.event === "ready");
    expect(services.orderFeed.openStreams).toBe(1);
    services.orderFeed.closeAll();
    await expect(stream.next(() => false, 2_000)).rejects.toThrow(/stream ended/);
  });

  it("renders the first page on the server: Order ID, items, total and date; or that there are none", async () => {
    const { app, alice, bob } = await setup({ ssr: true });
    const id = await placeOrder(app, alice);
    const html = await (await app.request(`${TEST_ORIGIN}/orders`, { headers: { cookie: alice } })).text();
    expect(html).toContain("Your Orders");
    expect(html).toMatch(new RegExp(`Order ID <span>${id}</span>`));
    expect(html).toContain(products.find((p) => p.id === 2)!.title);
    expect(html).toMatch(/<dt>Total<\/dt><dd><span class="price">\$[\d,]+\.\d\d<\/span>/);
    expect(html).toMatch(/<time dateTime="\d{4}-\d\d-\d\dT[^"]+">[A-Z][a-z]+ \d{1,2}, \d{4} at \d{1,2}:\d\d [AP]M UTC<\/time>/);
    const none = await (await app.request(`${TEST_ORIGIN}/orders`, { headers: { cookie: bob } })).text();
    expect(none).toContain("You don&#x27;t have orders yet.");
    expect(none).not.toContain(id);
  });

  it("sends the orders page what it shows of each order and no more: no line's description", async () => {
    const { app, alice } = await setup({ ssr: true });
    // Three orders: enough for the data answer to be gzipped when asked.
    for (const items of [[{ id: 2, amount: 2 }, { id: 9, amount: 1 }], [{ id: 9, amount: 3 }], [{ id: 5, amount: 1 }, { id: 2, amount: 1 }]]) {
      expect((await checkout(app.request, { origin: TEST_ORIGIN, cookie: alice, items })).paid?.status).toBe(200);
    }
    const { orders } = (await (await app.request("/api/orders", { headers: { cookie: alice } })).json()) as { orders: OrderJson[] };
    const descriptions = [2, 5, 9].map((id) => products.find((p) => p.id === id)!.description);
    // The API (and so the live feed's and "Show more"'s orders) still carries every field.
    expect(orders.flatMap((order) => order.basket.map((line) => line.description))).toEqual(expect.arrayContaining(descriptions));

    // The client-side navigation's data request, as React Router 7 makes it, plain and gzipped.
    for (const encoding of ["identity", "gzip"]) {
      const answer = await app.request(`${TEST_ORIGIN}/orders.data?_routes=routes%2Forders`, { headers: { cookie: alice, "accept-encoding": encoding } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-encoding") ?? "identity").toBe(encoding);
      const bytes = Buffer.from(await answer.arrayBuffer());
      const text = (encoding === "gzip" ? gunzipSync(bytes) : bytes).toString();
      for (const description of descriptions) expect(text).not.toContain(description);
      const { value } = await decodeTurboStream(new Response(text).body!, globalThis);
      // The orders come as one JSON text (app/orders/page-order.ts): each as the API has it, less each line's description.
      const shownOrders = JSON.parse((value as Record<string, { data: { orders: string } }>)["routes/orders"]!.data.orders) as Array<Record<string, unknown> & { basket: Array<Record<string, unknown>> }>;
      expect(shownOrders).toEqual(orders.map(({ basket, ...order }) => ({ ...order, basket: basket.map(({ description: _, ...line }) => line) })));
      for (const shown of shownOrders) {
        expect(Object.keys(shown).sort()).toEqual(["amount", "basket", "created", "id", "refunded", "status"]);
        for (const line of shown.basket) expect(Object.keys(line).sort()).toEqual(["amount", "id", "image", "priceCents", "rating", "title"]);
      }
    }
    // The whole page carries the same data for hydration: no description there either.
    const html = await (await app.request(`${TEST_ORIGIN}/orders`, { headers: { cookie: alice } })).text();
    for (const order of orders) expect(html).toContain(`Order ID <span>${order.id}</span>`);
    for (const description of descriptions) expect(html).not.toContain(JSON.stringify(description).slice(1, -1));
  });
});
