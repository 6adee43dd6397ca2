import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { memoryLogger } from "../../test/support/logger.ts";
import { type ReceivedSpan, startOtlpReceiver } from "../../test/support/otlp-receiver.ts";
import { openDatabase } from "../db/database.ts";
import { otelVariables, type TracingConfig } from "./otel-config.ts";
import { startTracing, type Tracing } from "./tracing.ts";

// Tracing on OpenTelemetry's SDK, in this process, exporting to an OTLP/HTTP receiver started here:
// both protocols, the caller's traceparent continued, the samplers, the resource, and children
// (queries, gateway calls) parented to their own request however requests overlap.

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const SERVER_KIND = 2;
const defaults = Object.fromEntries(Object.entries(otelVariables).map(([name, schema]) => [name, schema.parse(undefined)])) as Omit<TracingConfig, "INSTANCE_NAME">;

/** Tracing started as the shop starts it, exporting to a fresh receiver; `stop` flushes and unregisters it. */
async function tracing(settings: Partial<TracingConfig> = {}) {
  const receiver = await startOtlpReceiver();
  cleanups.push(receiver.close);
  const config: TracingConfig = { ...defaults, OTEL_BSP_SCHEDULE_DELAY: 20, INSTANCE_NAME: "test", OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...settings };
  const started = await startTracing(config, memoryLogger().log);
  let stopped = false;
  const stop = async () => {
    if (!stopped) await started.shutdown();
    stopped = true;
  };
  cleanups.push(stop);
  return { tracing: started, receiver, stop, spans: (count: number) => receiver.until((all) => all.length >= count) };
}

const noHeader = () => undefined;
const callerHeaders = (traceId: string, spanId: string, flags: "01" | "00", tracestate?: string) => (name: string) =>
  name === "traceparent" ? `00-${traceId}-${spanId}-${flags}` : name === "tracestate" ? tracestate : undefined;
const ids = () => ({ traceId: randomBytes(16).toString("hex"), spanId: randomBytes(8).toString("hex") });
const pause = () => new Promise((resolve) => setImmediate(resolve));

/** A query as the traced dialect runs one: a child span of whatever span is current. */
const query = (t: Tracing, text: string) => t.traceQuery("SELECT", { "db.query.text": text }, async () => void (await pause()));

/** A request answered through `request`, its span named `GET route`. */
const answer = (t: Tracing, route: string, header: (name: string) => string | undefined = noHeader, work = async () => {}) =>
  t.request(header, async (span) => {
    await work();
    span.finish("GET", route, 200);
    return span.traceId;
  });

describe.each([
  ["http/protobuf", "application/x-protobuf"],
  ["http/json", "application/json"],
] as const)("over %s", (protocol, contentType) => {
  it("exports the request span continuing the caller's traceparent, its children, and the resource", async () => {
    const { tracing: t, spans, receiver } = await tracing({
      OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
      OTEL_SERVICE_NAME: "shop-eu",
      OTEL_RESOURCE_ATTRIBUTES: { "deployment.environment": "staging", "service.name": "ignored" },
    });
    const caller = ids();
    const traceId = await answer(t, "/api/orders", callerHeaders(caller.traceId, caller.spanId, "01", "vendor=abc"), () => query(t, "select 1"));
    expect(traceId).toBe(caller.traceId);
    // Outside a request: a gateway call is a trace of its own, a query (a background poll) has none.
    await t.trace("payment gateway create_intent", { "payment.gateway": "stub" }, pause);
    await query(t, "outside");
    // A server error is the span's error.
    t.span(noHeader).finish("POST", "/api/payment/create", 503);

    const all = await spans(4);
    const request = all.find((span) => span.name === "GET /api/orders")!;
    expect(request).toMatchObject({ kind: SERVER_KIND, traceId: caller.traceId, parentSpanId: caller.spanId, traceState: "vendor=abc", service: "shop-eu" });
    expect(request.attributes).toMatchObject({ "http.request.method": "GET", "http.route": "/api/orders", "http.response.status_code": 200 });
    expect(request.resource).toMatchObject({ "service.name": "shop-eu", "deployment.environment": "staging", "service.instance.id": `test:${process.pid}`, "telemetry.sdk.name": "opentelemetry" });
    const child = all.find((span) => span.attributes["db.query.text"] === "select 1")!;
    expect(child).toMatchObject({ traceId: caller.traceId, parentSpanId: request.spanId, name: "SELECT" });
    const gateway = all.find((span) => span.name === "payment gateway create_intent")!;
    expect(gateway.parentSpanId ?? "").toBe("");
    expect(gateway.traceId).not.toBe(caller.traceId);
    expect(all.find((span) => span.name === "POST /api/payment/create")?.attributes).toMatchObject({ "http.response.status_code": 503, "error.type": "503" });
    expect(all.some((span) => span.attributes["db.query.text"] === "outside")).toBe(false);
    expect(new Set(receiver.contentTypes)).toEqual(new Set([contentType]));
  });
});

describe("the sampler", () => {
  const sampled = ids();
  const unsampled = ids();

  /** The request spans each setting exports, once tracing has shut down (everything queued sent). */
  async function exported(settings: Partial<TracingConfig>): Promise<ReceivedSpan[]> {
    const { tracing: t, stop, receiver } = await tracing(settings);
    await answer(t, "/root", noHeader, () => query(t, "root child"));
    t.span(noHeader).finish("GET", "/shared", 200);
    await answer(t, "/sampled-parent", callerHeaders(sampled.traceId, sampled.spanId, "01"), () => query(t, "sampled child"));
    await answer(t, "/unsampled-parent", callerHeaders(unsampled.traceId, unsampled.spanId, "00"), async () => {
      await query(t, "unsampled child");
      await t.trace("gateway in unsampled", {}, pause);
    });
    await stop();
    return receiver.spans;
  }
  const names = (spans: ReceivedSpan[]) => spans.map((span) => span.name).sort();

  it("always_off and traceidratio 0 send nothing, whatever the caller says", async () => {
    expect(await exported({ OTEL_TRACES_SAMPLER: "always_off" })).toEqual([]);
    expect(await exported({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: 0 })).toEqual([]);
  });

  it("parentbased samplers follow the caller's sampled flag, and their root sampler otherwise", async () => {
    // Ratio 0: no trace of our own, but a sampled caller's trace is continued, its children too.
    const ratio = await exported({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: 0 });
    expect(names(ratio)).toEqual(["GET /sampled-parent", "SELECT"]);
    expect(ratio.every((span) => span.traceId === sampled.traceId)).toBe(true);
    expect(names(await exported({ OTEL_TRACES_SAMPLER: "parentbased_always_off" }))).toEqual(["GET /sampled-parent", "SELECT"]);
    // The default: everything but what an unsampled caller asked not to record (nor its children).
    const on = await exported({});
    expect(names(on)).toEqual(["GET /root", "GET /sampled-parent", "GET /shared", "SELECT", "SELECT"]);
    expect(on.some((span) => span.traceId === unsampled.traceId || span.name === "gateway in unsampled")).toBe(false);
    // always_on ignores the caller's flag.
    expect(names(await exported({ OTEL_TRACES_SAMPLER: "always_on" }))).toContain("GET /unsampled-parent");
  });

  it("traceidratio keeps about its share of traces", async () => {
    const { tracing: t, stop, receiver } = await tracing({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: 0.1 });
    for (let i = 0; i < 2000; i++) t.span(noHeader).finish("GET", "/api/catalogue/products", 200);
    await stop();
    expect(receiver.spans.length).toBeGreaterThan(120);
    expect(receiver.spans.length).toBeLessThan(280);
  });
});

it("parents each of many overlapping requests' children to its own span", async () => {
  const { tracing: t, spans } = await tracing();
  const routes = Array.from({ length: 20 }, (_, i) => `/r${i}`);
  await Promise.all(
    routes.map((route, i) =>
      answer(t, route, noHeader, async () => {
        for (let step = 0; step < (i % 4) + 1; step++) {
          await query(t, `${route} ${step}`);
          if (i % 3 === 0) await pause();
        }
        // A gateway call's span, with a query inside it: a grandchild of the request.
        await t.trace("payment gateway call", {}, () => query(t, `${route} nested`));
      }),
    ),
  );
  const expected = routes.reduce((sum, _, i) => sum + 1 + (i % 4) + 1 + 2, 0);
  const all = await spans(expected);
  for (const [i, route] of routes.entries()) {
    const request = all.find((span) => span.name === `GET ${route}`)!;
    const queries = all.filter((span) => span.parentSpanId === request.spanId && span.name === "SELECT").map((span) => span.attributes["db.query.text"]);
    expect(queries.sort()).toEqual(Array.from({ length: (i % 4) + 1 }, (_, step) => `${route} ${step}`));
    const gateway = all.find((span) => span.name === "payment gateway call" && span.parentSpanId === request.spanId)!;
    expect(all.filter((span) => span.parentSpanId === gateway.spanId).map((span) => span.attributes["db.query.text"])).toEqual([`${route} nested`]);
    expect(all.filter((span) => span.traceId === request.traceId)).toHaveLength(1 + (i % 4) + 1 + 2);
  }
});

// The context's storage is disabled whenever no traced work is under way (quiet-context-manager.ts):
// a request's children must still find its span, however requests overlap and whenever they start.
it("keeps a request's span current for work done after its handler returned, until its response is done", async () => {
  const { tracing: t, spans } = await tracing();
  const response = Object.assign(new EventEmitter(), { closed: false });
  let bodyWritten!: () => void;
  const written = new Promise<void>((resolve) => (bodyWritten = resolve));
  let streaming: Promise<void> = Promise.resolve();
  await t.request(
    noHeader,
    async (span) => {
      span.finish("GET", "/streamed", 200);
      // As a streamed body's deferred data: read after the handler has given its response.
      streaming = written.then(() => query(t, "deferred"));
    },
    response,
  );
  // Another request starts and ends meanwhile; the first one's response is not done.
  await answer(t, "/other");
  bodyWritten();
  await streaming;
  response.closed = true;
  response.emit("close");
  // Nothing under way now: a new request is traced as the first ones were, and a query outside
  // any request has no span.
  await answer(t, "/after", noHeader, () => query(t, "after"));
  await query(t, "outside");
  const all = await spans(5);
  const parentOf = (text: string) => all.find((span) => span.spanId === all.find((child) => child.attributes["db.query.text"] === text)?.parentSpanId)?.name;
  expect([parentOf("deferred"), parentOf("after")]).toEqual(["GET /streamed", "GET /after"]);
  expect(all.filter((span) => span.parentSpanId === all.find((other) => other.name === "GET /other")!.spanId)).toEqual([]);
  expect(all.some((span) => span.attributes["db.query.text"] === "outside")).toBe(false);
});

it("parents a request's children to it when another request has started, queried and ended meanwhile", async () => {
  const { tracing: t, spans } = await tracing();
  let aMayGoOn!: () => void;
  const gate = new Promise<void>((resolve) => (aMayGoOn = resolve));
  const a = answer(t, "/a", noHeader, async () => {
    await query(t, "a1");
    await gate;
    await query(t, "a2");
  });
  await pause();
  await answer(t, "/b", noHeader, () => query(t, "b1"));
  aMayGoOn();
  await a;
  const all = await spans(5);
  const request = all.find((span) => span.name === "GET /a")!;
  expect(all.filter((span) => span.parentSpanId === request.spanId).map((span) => span.attributes["db.query.text"]).sort()).toEqual(["a1", "a2"]);
});

it("traces SQLite queries through the traced dialect, with the statement and never its values", async () => {
  const { tracing: t, spans } = await tracing();
  const database = openDatabase({ engine: "sqlite", file: ":memory:" }, { trace: t.traceQuery });
  cleanups.push(() => database.close());
  await answer(t, "/sqlite", noHeader, async () => {
    await database.db.selectNoFrom((eb) => eb.val("secret-value").as("v")).execute();
  });
  const all = await spans(2);
  const request = all.find((span) => span.name === "GET /sqlite")!;
  const select = all.find((span) => span.parentSpanId === request.spanId)!;
  expect(select).toMatchObject({ name: "SELECT", attributes: { "db.system.name": "sqlite", "db.operation.name": "SELECT" } });
  expect(String(select.attributes["db.query.text"])).toMatch(/^select \? as "v"$/);
  expect(JSON.stringify(all)).not.toContain("secret-value");
});
