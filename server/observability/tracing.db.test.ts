import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import products from "../../catalogue/products.json" with { type: "json" };
import { freePort } from "../../test/support/local-cluster.ts";
import { type ReceivedSpan, startOtlpReceiver } from "../../test/support/otlp-receiver.ts";
import { createPostgresSchema, testEngines } from "../../test/support/database.ts";
import { type RunningServer, startServer } from "../../test/support/server-process.ts";
import { eventually } from "../../test/support/poll.ts";

// The built server with OTEL_EXPORTER_OTLP_ENDPOINT set exports its spans over OTLP/HTTP to a
// receiver started here: a request's span continues the caller's traceparent, and its database
// queries and gateway calls are its children. PostgreSQL's query spans are OpenTelemetry's pg
// instrumentation's (named pg.query:…), SQLite's the traced dialect's (named by the statement's verb).

const PRICE = Math.round(products.find((p) => p.id === 4)!.price * 100);
const SERVER_KIND = 2;
/** A query's span, on either engine: its statement, as compiled with placeholders. */
const statement = (span: ReceivedSpan) => String(span.attributes["db.query.text"] ?? "");

/** Whether `span` hangs from `ancestor`, directly or through others (better-auth's own spans, say). */
function descendsFrom(spans: ReceivedSpan[], span: ReceivedSpan, ancestor: ReceivedSpan): boolean {
  for (let parent = span.parentSpanId; parent; parent = spans.find((s) => s.spanId === parent)?.parentSpanId) if (parent === ancestor.spanId) return true;
  return false;
}

/** The first log line `match` accepts, once the server has written it. */
async function logLine(server: RunningServer, match: (record: Record<string, unknown>) => boolean, timeoutMs = 5_000) {
  const found = await eventually(() => server.logs.find(match), (record) => record !== undefined, { timeoutMs });
  if (!found) throw new Error("the log line did not come");
  return found;
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(testEngines())("tracing on %s", (engine) => {
  it("exports the request span, continuing traceparent, with its database and gateway child spans", async () => {
    const receiver = await startOtlpReceiver();
    cleanups.push(receiver.close);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-tracing-"));
    cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env: Record<string, string> = {};
    if (engine === "postgres") {
      const schema = await createPostgresSchema("tracing");
      cleanups.push(schema.drop);
      env.DATABASE_URL = schema.databaseUrl;
    }
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const server: RunningServer = await startServer({
      ...env,
      PORT: String(port),
      PUBLIC_URL: origin,
      DATA_DIR: dataDir,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: "storefront-test",
      OTEL_BSP_SCHEDULE_DELAY: "50",
      // JSON here, protobuf (the default) in pipeline/ready-answers-tracing.integration.test.ts: both protocols end to end.
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    });
    cleanups.push(() => server.stop("SIGKILL"));

    const post = (route: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${origin}${route}`, { method: "POST", headers: { "content-type": "application/json", origin, ...headers }, body: JSON.stringify(body) });
    const signUp = await post("/api/auth/sign-up/email", { email: "traced@example.com", password: "correct horse", name: "traced" });
    expect(signUp.status).toBe(200);
    const cookie = signUp.headers.getSetCookie()[0]!.split(";")[0]!;

    const traceId = randomBytes(16).toString("hex");
    const callerSpanId = randomBytes(8).toString("hex");
    const orders = await fetch(`${origin}/api/orders`, { headers: { cookie, traceparent: `00-${traceId}-${callerSpanId}-01`, tracestate: "vendor=abc" } });
    expect(orders.status).toBe(200);
    // A caller that does not record this trace (sampled flag 0) gets no span from us either.
    const unrecorded = randomBytes(16).toString("hex");
    expect((await fetch(`${origin}/api/orders`, { headers: { cookie, traceparent: `00-${unrecorded}-${callerSpanId}-00` } })).status).toBe(200);
    const created = await post("/api/payment/create", { items: [{ id: 4, amount: 1 }], total: PRICE }, { cookie });
    expect(created.status).toBe(200);

    const isRequest = (span: ReceivedSpan) => span.name === "GET /api/orders" && span.traceId === traceId;
    const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan | undefined) => spans.filter((s) => parent && s.parentSpanId === parent.spanId);
    const spans = await receiver.until((all) => {
      const request = all.find(isRequest);
      const create = all.find((s) => s.name === "POST /api/payment/create");
      return childrenOf(all, request).some((s) => /from "orders"/.test(statement(s))) && childrenOf(all, create).some((s) => s.name === "payment gateway create_intent");
    });

    const request = spans.find(isRequest)!;
    expect(request).toMatchObject({ kind: SERVER_KIND, parentSpanId: callerSpanId, traceState: "vendor=abc", service: "storefront-test" });
    expect(request.attributes).toMatchObject({ "http.request.method": "GET", "http.route": "/api/orders", "http.response.status_code": 200 });
    const query = childrenOf(spans, request).find((s) => /^select .* from "orders"/.test(statement(s)))!;
    expect(query.traceId).toBe(traceId);
    expect(query.attributes["db.system.name"]).toBe(engine === "postgres" ? "postgresql" : "sqlite");
    expect(query.name).toMatch(engine === "postgres" ? /^pg\.query:/ : /^SELECT$/);
    // The session lookup is the request's too, below the spans better-auth makes through the
    // OpenTelemetry API once a tracer provider is registered.
    expect(spans.some((s) => /from "session"/.test(statement(s)) && descendsFrom(spans, s, request))).toBe(true);
    // The request's log line names the same trace (log lines go out in batches: wait for it).
    const line = await logLine(server, (r) => r.msg === "request" && r.route === "/api/orders");
    expect(line).toMatchObject({ traceId });
    // The statement's placeholders, never the values: the user id is in no span.
    expect(line.userId).toMatch(/\S+/);
    expect(JSON.stringify(spans)).not.toContain(String(line.userId));

    const create = spans.find((s) => s.name === "POST /api/payment/create")!;
    expect(childrenOf(spans, create).map((s) => s.name)).toContain("payment gateway create_intent");
    expect(childrenOf(spans, create).some((s) => /^insert into/.test(statement(s)))).toBe(true);
    expect(create.traceId).not.toBe(traceId); // no traceparent came: a trace of its own
    expect(spans.filter((s) => s.traceId === unrecorded)).toEqual([]);
    expect((await logLine(server, (r) => r.msg === "request" && r.traceId === unrecorded)).route).toBe("/api/orders");

    // Overlapping requests, with answers given in front of Hono (which never make their span current) among them:
    // each request's queries are its own children, in its own trace, and no span is lost.
    const overlapping = Array.from({ length: 8 }, () => randomBytes(16).toString("hex"));
    const answers = await Promise.all([
      ...overlapping.map((id) => fetch(`${origin}/api/orders`, { headers: { cookie, traceparent: `00-${id}-${callerSpanId}-01` } })),
      ...overlapping.map(() => fetch(`${origin}/api/catalogue/products`)),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    await Promise.all(answers.map((answer) => answer.arrayBuffer()));
    const all = await receiver.until((received) => overlapping.every((id) => received.some((s) => s.traceId === id && s.name === "GET /api/orders")));
    for (const id of overlapping) {
      const requests = all.filter((s) => s.traceId === id && s.kind === SERVER_KIND);
      expect(requests).toHaveLength(1);
      const ordersQuery = childrenOf(all, requests[0]).find((s) => /from "orders"/.test(statement(s)));
      expect(ordersQuery?.traceId, id).toBe(id);
      // Every span of this trace hangs from this request.
      expect(all.filter((s) => s.traceId === id && s.kind !== SERVER_KIND).every((s) => descendsFrom(all, s, requests[0]!))).toBe(true);
    }
    // Queries outside a request (background polls, the reconciler's) start no trace of their own.
    expect(all.filter((s) => s.attributes["db.system.name"] !== undefined && !s.parentSpanId)).toEqual([]);
    expect(new Set(receiver.contentTypes)).toEqual(new Set(["application/json"]));
  }, 60_000);
});
