import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { type FinishedSpan, OtlpExporter, type OtlpExporterOptions, serverSpanJson, spanJson, unixNanos } from "./otlp-exporter.ts";

interface Received {
  headers: http.IncomingHttpHeaders;
  body: { resourceSpans: Array<{ resource: { attributes: unknown[] }; scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }> };
}

/** A collector on 127.0.0.1 that keeps every export (answering `status`). */
async function collector(status = 200) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const text = req.headers["content-encoding"] === "gzip" ? gunzipSync(raw).toString() : raw.toString();
      received.push({ headers: req.headers, body: JSON.parse(text) as Received["body"] });
      res.writeHead(status, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, received };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function exporter(url: string, options: Partial<OtlpExporterOptions> = {}) {
  const problems: Array<{ reason: string; spans: number }> = [];
  const made = new OtlpExporter({
    url,
    protocol: "http/json",
    headers: {},
    timeoutMs: 2_000,
    compression: "none",
    scheduleDelayMs: 60_000,
    maxQueueSize: 100,
    maxBatchSize: 10,
    resource: { "service.name": "shop-test" },
    onProblem: (problem) => problems.push(problem),
    ...options,
  });
  return { exporter: made, problems };
}

const span = (n: number, extra: Partial<FinishedSpan> = {}): FinishedSpan => ({
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: n.toString(16).padStart(16, "0"),
  name: `GET /thing/${n}`,
  kind: "server",
  startMs: 1_700_000_000_000.25,
  endMs: 1_700_000_000_001.5,
  attributes: { "http.route": "/thing/:id", "http.response.status_code": 200, ok: true, ratio: 0.5, skipped: undefined },
  ...extra,
});

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe("OTLP/HTTP JSON exporter", () => {
  it("sends a full batch at once, as OTLP JSON with the resource, and the rest at shutdown", async () => {
    const { url, received } = await collector();
    const { exporter: spans } = exporter(url, { headers: { authorization: "Bearer collector-token" } });
    for (let n = 1; n <= 13; n++) spans.addSpan(span(n));
    await until(() => received.length === 1);
    expect(received).toHaveLength(1);
    await spans.shutdown();
    expect(received.map((r) => r.body.resourceSpans[0]!.scopeSpans[0]!.spans.length)).toEqual([10, 3]);
    const first = received[0]!;
    expect(first.headers).toMatchObject({ "content-type": "application/json", authorization: "Bearer collector-token" });
    expect(first.body.resourceSpans[0]!.resource.attributes).toEqual([{ key: "service.name", value: { stringValue: "shop-test" } }]);
    expect(first.body.resourceSpans[0]!.scopeSpans[0]!.spans[0]).toEqual({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "0000000000000001",
      name: "GET /thing/1",
      kind: 2,
      startTimeUnixNano: "1700000000000250000",
      endTimeUnixNano: "1700000000001500000",
      attributes: [
        { key: "http.route", value: { stringValue: "/thing/:id" } },
        { key: "http.response.status_code", value: { intValue: "200" } },
        { key: "ok", value: { boolValue: true } },
        { key: "ratio", value: { doubleValue: 0.5 } },
      ],
    });
  });

  it("writes parents, trace state, client kind and errors (the type, never the message), escaping text", async () => {
    const { url, received } = await collector();
    const { exporter: spans } = exporter(url, { compression: "gzip" });
    spans.addSpan(span(1, { kind: "client", parentSpanId: "00f067aa0ba902b7", traceState: "a=b", name: 'SELECT "quoted" \\ \u2028', error: "SqliteError" }));
    await spans.shutdown();
    expect(received[0]!.headers["content-encoding"]).toBe("gzip");
    expect(received[0]!.body.resourceSpans[0]!.scopeSpans[0]!.spans[0]).toMatchObject({
      parentSpanId: "00f067aa0ba902b7",
      traceState: "a=b",
      name: 'SELECT "quoted" \\ \u2028',
      kind: 3,
      status: { code: 2 },
      attributes: expect.arrayContaining([{ key: "error.type", value: { stringValue: "SqliteError" } }]),
    });
  });

  it("sends what waited for the schedule delay without a full batch", async () => {
    const { url, received } = await collector();
    const { exporter: spans } = exporter(url, { scheduleDelayMs: 50 });
    spans.addSpan(span(1));
    await until(() => received.length === 1);
    expect(received).toHaveLength(1);
    await spans.shutdown();
  });

  it("drops spans beyond the queue and failed exports, and says how many", async () => {
    const { url, received } = await collector(503);
    const { exporter: spans, problems } = exporter(url, { maxQueueSize: 5, maxBatchSize: 5, scheduleDelayMs: 20 });
    for (let n = 1; n <= 8; n++) spans.addSpan(span(n));
    await until(() => problems.length >= 2);
    await spans.shutdown();
    expect(received).toHaveLength(1);
    expect(problems).toEqual(expect.arrayContaining([{ reason: "the queue was full", spans: 3 }, { reason: "the collector answered 503", spans: 5 }]));
  });

  it("sends every span of many batches intact, their buffers filled again after each has gone, and a span larger than a batch whole", async () => {
    const { url, received } = await collector();
    const { exporter: spans, problems } = exporter(url, { maxQueueSize: 10_000, maxBatchSize: 50 });
    const long = `SELECT ${"x".repeat(300 * 1024)} \u00e9`;
    for (let n = 1; n <= 1_000; n++) {
      spans.addSpan(span(n, n === 500 ? { name: long } : {}));
      // Batches leave while others are being filled, as under load.
      if (n % 75 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await spans.shutdown();
    expect(problems).toEqual([]);
    const sent = received.flatMap((r) => r.body.resourceSpans[0]!.scopeSpans[0]!.spans);
    expect(sent.map((s) => Number.parseInt(String(s.spanId), 16))).toEqual(Array.from({ length: 1_000 }, (_, i) => i + 1));
    expect(sent.filter((s) => s.name !== `GET /thing/${Number.parseInt(String(s.spanId), 16)}`).map((s) => s.name)).toEqual([long]);
    expect(received.every((r) => r.body.resourceSpans[0]!.resource.attributes.length === 1)).toBe(true);
  });

  it("says so when the collector cannot be reached", async () => {
    const { exporter: spans, problems } = exporter("http://127.0.0.1:9/v1/traces");
    spans.addSpan(span(1));
    await spans.shutdown();
    expect(problems).toEqual([{ reason: expect.stringMatching(/ECONNREFUSED/), spans: 1 }]);
  });
});

it("writes epoch milliseconds as exact nanoseconds", () => {
  expect(unixNanos(1_700_000_000_123)).toBe("1700000000123000000");
  // A fraction that rounds up to the next millisecond carries over.
  expect(unixNanos(1_700_000_000_123 + 0.999_999_9)).toBe("1700000000124000000");
  expect(unixNanos(1_700_000_000_000.0625)).toBe("1700000000000062500");
});

it("writes a request's span as the general writer would", () => {
  const times = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", startMs: 1_700_000_000_000.5, endMs: 1_700_000_000_002 };
  for (const [status, parent] of [[200, undefined], [503, "1111111111111111"]] as const) {
    const general = spanJson({
      ...times,
      parentSpanId: parent,
      traceState: parent && 'vendor="x"',
      name: 'GET /products/:id "x"',
      kind: "server",
      attributes: { "http.request.method": "GET", "http.route": '/products/:id "x"', "http.response.status_code": status },
      error: status >= 500 ? String(status) : undefined,
    });
    const fast = serverSpanJson({ ...times, parentSpanId: parent, traceState: parent && 'vendor="x"' }, "GET", '/products/:id "x"', status);
    expect(JSON.parse(fast)).toEqual(JSON.parse(general));
    // The second request of a route, method and status (its name and attributes kept) reads the same.
    expect(JSON.parse(serverSpanJson({ ...times, parentSpanId: parent, traceState: parent && 'vendor="x"' }, "GET", '/products/:id "x"', status))).toEqual(JSON.parse(general));
  }
  // Another method or status on the same route is not taken for the first.
  expect(JSON.parse(serverSpanJson(times, "HEAD", '/products/:id "x"', 304))).toMatchObject({
    name: 'HEAD /products/:id "x"',
    attributes: [
      { key: "http.request.method", value: { stringValue: "HEAD" } },
      { key: "http.route", value: { stringValue: '/products/:id "x"' } },
      { key: "http.response.status_code", value: { intValue: "304" } },
    ],
  });
});
