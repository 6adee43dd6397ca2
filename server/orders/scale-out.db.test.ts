import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { checkout, over, priceCents, signUpAt, NO_POSTGRES } from "../../test/support/checkout.ts";
import { type Cluster, nginxBinary, startCluster } from "../../test/support/local-cluster.ts";
import { createPostgresSchema } from "../../test/support/database.ts";
import { builtPages } from "../../test/support/pages.ts";
import { followSse } from "../../test/support/sse.ts";
import type { Order } from "./order.ts";

// Two app processes on one PostgreSQL behind a real nginx (deploy/local-cluster.ts, as
// `npm run scale:demo` runs it): sessions, orders and live streams work across instances.

const url = inject("postgresUrl");
const nginx = nginxBinary();
const reason = !url
  ? NO_POSTGRES
  : !nginx
    ? "nginx is not installed (Debian: apt-get install -y nginx; .ci/run installs it)"
    : null;
if (reason && process.env.REQUIRE_NGINX === "1" && nginx === null) throw new Error(`REQUIRE_NGINX=1 but ${reason}`);
if (reason) console.log(`Scale-out tests skipped: ${reason}.`);

const PRICE = priceCents(4);


describe.skipIf(reason !== null)("two instances behind nginx on one PostgreSQL", () => {
  let cluster: Cluster;
  let cookie: string;
  let dropSchema: () => Promise<void>;

  /** Pays through the instance (or nginx) at `base`; returns the order id. */
  async function orderThrough(base: string): Promise<string> {
    const { paid, orderId } = await checkout(over(base), { origin: cluster.url, cookie, items: [{ id: 4, amount: 1 }] });
    expect(paid?.status).toBe(200);
    return orderId!;
  }

  beforeAll(async () => {
    await builtPages();
    const schema = await createPostgresSchema("scale");
    dropSchema = schema.drop;
    cluster = await startCluster({ databaseUrl: schema.databaseUrl, env: { AUTH_RATE_LIMIT_MAX: "1000" } });
    cookie = await signUpAt(over(cluster.url), cluster.url, "scale@example.com");
  }, 90_000);

  afterAll(async () => {
    await cluster?.close();
    await dropSchema?.();
  }, 30_000);

  it("accepts a session made through nginx on each instance directly", async () => {
    for (const instance of cluster.instances) {
      const session = await fetch(`${instance.url}/api/auth/get-session`, { headers: { cookie } });
      expect(((await session.json()) as { user: { email: string } }).user.email, instance.name).toBe("scale@example.com");
    }
  });

  it("signs in with the page's form through nginx (the browser's origin, port included, reaches the app)", async () => {
    const response = await fetch(`${cluster.url}/auth`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: cluster.url },
      body: new URLSearchParams({ intent: "signin", email: "scale@example.com", password: "correct horse", redirectTo: "/orders" }).toString(),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/orders");
    expect(response.headers.getSetCookie().join()).toContain("storefront.session_token=");
  });

  it("shows an order fulfilled through instance A on a stream opened on instance B", async () => {
    const [a, b] = cluster.instances as [(typeof cluster.instances)[0], (typeof cluster.instances)[0]];
    const stream = followSse(`${b.url}/api/orders/stream`, { cookie });
    try {
      const ready = await stream.next((e) => e.event === "ready");
      expect(JSON.parse(ready.data).instance).toMatch(/^app2:/);
      const id = await orderThrough(a.url);
      const event = await stream.next((e) => e.event === "order" && (JSON.parse(e.data) as Order).id === id, 5_000);
      expect(JSON.parse(event.data)).toMatchObject({ id, amount: PRICE });
    } finally {
      stream.close();
    }
  });

  it("keeps a stream through nginx going when its instance restarts: it reconnects and catches up, without duplicates", async () => {
    const stream = followSse(`${cluster.url}/api/orders/stream`, { cookie });
    try {
      const ready = await stream.next((e) => e.event === "ready");
      const servingName = (JSON.parse(ready.data) as { instance: string }).instance.split(":")[0];
      const serving = cluster.instances.find((i) => i.name === servingName)!;
      const before = await orderThrough(cluster.url);
      await stream.next((e) => e.event === "order" && (JSON.parse(e.data) as Order).id === before);

      // The instance the stream is on stops (its streams end at once) and comes back a little later;
      // meanwhile an order is placed through nginx, which sends it to the other instance.
      await serving.stop("SIGTERM");
      const during = await orderThrough(cluster.url);
      await serving.start();
      const after = await orderThrough(cluster.url);

      for (const id of [during, after]) await stream.next((e) => e.event === "order" && (JSON.parse(e.data) as Order).id === id, 15_000);
      expect(stream.connections).toBeGreaterThanOrEqual(2);
      const ids = stream.events.filter((e) => e.event === "order").map((e) => (JSON.parse(e.data) as Order).id);
      // Each order once, in the order placed (the previous test's order may also arrive: it is recent).
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.filter((id) => [before, during, after].includes(id))).toEqual([before, during, after]);
    } finally {
      stream.close();
    }
  }, 60_000);
});
