import { NO_POSTGRES } from "../../test/support/checkout.ts";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import products from "../../catalogue/products.json" with { type: "json" };
import { type Cluster, nginxBinary, startCluster } from "../../test/support/local-cluster.ts";
import { prometheusBinary, type RunningPrometheus, startPrometheus } from "../../deploy/prometheus.ts";
import { createPostgresSchema } from "../../test/support/database.ts";
import { builtPages } from "../../test/support/pages.ts";
import { eventually } from "../../test/support/poll.ts";

// A real Prometheus (Debian's package) running deploy/prometheus.yml and alerts.yml, scraping the
// two instances of the scale demo (deploy/local-cluster.ts) behind nginx on one PostgreSQL.

const url = inject("postgresUrl");
const nginx = nginxBinary();
const prometheusPath = prometheusBinary();
const reason = !url
  ? NO_POSTGRES
  : !nginx
    ? "nginx is not installed (Debian: apt-get install -y nginx; .ci/run installs it)"
    : !prometheusPath
      ? "prometheus is not installed (Debian: apt-get install -y prometheus; .ci/run installs it)"
      : null;
if (reason && process.env.REQUIRE_NGINX === "1" && (nginx === null || prometheusPath === null)) throw new Error(`REQUIRE_NGINX=1 but ${reason}`);
if (reason) console.log(`Prometheus tests skipped: ${reason}.`);

const PRICE = Math.round(products.find((p) => p.id === 4)!.price * 100);
const CARD = { number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123", postalCode: "1000" };

describe.skipIf(reason !== null)("Prometheus scraping two instances behind nginx", () => {
  let cluster: Cluster;
  let prometheus: RunningPrometheus;
  let dropSchema: () => Promise<void>;

  /** Asks Prometheus `promql` until `done` holds for the answer (it scrapes every second here). */
  async function until(promql: string, done: (values: number[]) => boolean, timeoutMs = 30_000): Promise<number[]> {
    return eventually(async () => (await prometheus.query(promql)).map((r) => r.value), done, { timeoutMs, everyMs: 250 });
  }

  beforeAll(async () => {
    await builtPages();
    const schema = await createPostgresSchema("prom");
    dropSchema = schema.drop;
    cluster = await startCluster({ databaseUrl: schema.databaseUrl, env: { AUTH_RATE_LIMIT_MAX: "1000" } });
    prometheus = await startPrometheus({ binary: prometheusPath!, targets: cluster.instances.map((i) => i.metricsAddress), scrapeSeconds: 1 });
  }, 90_000);

  afterAll(async () => {
    await prometheus?.close();
    await cluster?.close();
    await dropSchema?.();
  }, 30_000);

  it("scrapes both instances and its HTTP API returns the checkout counter after a checkout through nginx", async () => {
    expect(await until('count(up{job="storefront"} == 1)', (v) => v[0] === 2)).toEqual([2]);

    const post = (path: string, body: unknown, cookie = "") =>
      fetch(`${cluster.url}${path}`, { method: "POST", headers: { "content-type": "application/json", origin: cluster.url, cookie }, body: JSON.stringify(body) });
    const signUp = await post("/api/auth/sign-up/email", { email: "prometheus@example.com", password: "correct horse", name: "prometheus" });
    expect(signUp.status).toBe(200);
    // nginx's $request_id came through as the request's id (TRUST_PROXY=1).
    expect(signUp.headers.get("x-request-id")).toMatch(/^[0-9a-f]{32}$/);
    const cookie = signUp.headers.getSetCookie()[0]!.split(";")[0]!;
    const create = await post("/api/payment/create", { items: [{ id: 4, amount: 1 }], total: PRICE }, cookie);
    expect(create.status, await create.clone().text()).toBe(200);
    const created = (await create.json()) as { clientSecret: string };
    const paid = await post("/api/payment/confirm", { clientSecret: created.clientSecret, card: CARD }, cookie);
    expect(paid.status).toBe(200);

    const succeeded = 'sum(storefront_checkouts_total{job="storefront",outcome="succeeded"})';
    expect(await until(succeeded, (v) => v[0] === 1)).toEqual([1]);
    expect(await until('sum(storefront_checkouts_total{outcome="created"})', (v) => v[0] === 1)).toEqual([1]);
    expect(await until("sum(storefront_orders_written_total)", (v) => v[0] === 1)).toEqual([1]);
    // Each instance is its own series; the requests through nginx are spread over them by route pattern.
    const confirms = await prometheus.query('sum by (instance) (storefront_http_requests_total{route="/api/payment/confirm",status="200"})');
    expect(confirms.map((r) => r.labels.instance).every((instance) => cluster.instances.some((i) => i.metricsAddress === instance))).toBe(true);
    // The alert rules loaded and evaluate (none fires on a healthy cluster).
    const rules = (await (await fetch(`${prometheus.url}/api/v1/rules`)).json()) as { data: { groups: Array<{ rules: Array<{ name: string }> }> } };
    const loaded = rules.data.groups.flatMap((g) => g.rules);
    expect(loaded.map((r) => r.name)).toContain("StorefrontCatalogueStale");
    expect(await until("sum(storefront_catalogue_state{state=\"fresh\"})", (v) => v[0] === 2)).toEqual([2]);
  }, 90_000);
});
