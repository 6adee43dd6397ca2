import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { decodeExportRequest } from "../../test/support/otlp-receiver.ts";
import { type FinishedSpan, OtlpExporter, type OtlpProtocol } from "./otlp-exporter.ts";
import { varintSize, writeNanos, writeVarint } from "./otlp-protobuf.ts";

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A collector keeping each export's Content-Type and body, read as OTLP/JSON whatever the protocol. */
async function collector() {
  const received: Array<{ type: string; body: ReturnType<typeof decodeExportRequest> }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const type = req.headers["content-type"] ?? "";
      const raw = req.headers["content-encoding"] === "gzip" ? gunzipSync(Buffer.concat(chunks)) : Buffer.concat(chunks);
      const body = type === "application/x-protobuf" ? decodeExportRequest(raw) : (JSON.parse(raw.toString("utf8")) as ReturnType<typeof decodeExportRequest>);
      received.push({ type, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, received };
}

function exporter(url: string, protocol: OtlpProtocol, options: { maxBatchSize?: number; compression?: "gzip" | "none" } = {}) {
  const problems: Array<{ reason: string; spans: number }> = [];
  const made = new OtlpExporter({
    url,
    protocol,
    headers: {},
    timeoutMs: 2_000,
    compression: options.compression ?? "none",
    scheduleDelayMs: 60_000,
    maxQueueSize: 10_000,
    maxBatchSize: options.maxBatchSize ?? 100,
    resource: { "service.name": "shop-test", "service.instance.id": "é:1" },
    onProblem: (problem) => problems.push(problem),
  });
  return { exporter: made, problems };
}

const ids = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7" };

/** The same spans through each exporter: requests' spans (their fast path) and others of every attribute type. */
function sendAll(spans: OtlpExporter) {
  spans.addServerSpan({ ...ids, startMs: 1_700_000_000_000.25, endMs: 1_700_000_000_001.5 }, "GET", "/api/catalogue/products", 200);
  spans.addServerSpan({ ...ids, parentSpanId: "1111111111111111", traceState: "vendor=x,other=y", startMs: 1_700_000_000_123 + 0.999_999_9, endMs: 1_764_000_000_000 }, "POST", "/api/payment/create", 503);
  spans.addSpan({
    ...ids,
    spanId: "0000000000000003",
    parentSpanId: "00f067aa0ba902b7",
    name: 'select "quoted" \\ \u2028 é from products',
    kind: "client",
    startMs: 1_700_000_000_000.0625,
    endMs: 1_700_000_000_000.5,
    attributes: { "db.system": "postgresql", rows: 3, negative: -42, big: 2 ** 40, ratio: 0.125, ok: true, off: false, skipped: undefined },
    error: "DatabaseError",
  } satisfies FinishedSpan);
}

describe("OTLP/HTTP protobuf exporter", () => {
  it("sends the same spans as the JSON exporter, read back by opentelemetry-proto's field numbers, as application/x-protobuf", async () => {
    const { url, received } = await collector();
    for (const protocol of ["http/json", "http/protobuf"] as const) {
      const { exporter: spans, problems } = exporter(url, protocol);
      sendAll(spans);
      await spans.shutdown();
      expect(problems).toEqual([]);
    }
    expect(received.map((r) => r.type)).toEqual(["application/json", "application/x-protobuf"]);
    const [json, protobuf] = received.map((r) => r.body);
    expect(protobuf).toEqual(json);
    // And what both say is what OTLP asks for (the JSON writer's own tests check the rest).
    const sent = protobuf!.resourceSpans[0]!.scopeSpans![0]!.spans!;
    expect(sent.map((s) => [s.name, s.kind, s.startTimeUnixNano, s.endTimeUnixNano, s.status?.code])).toEqual([
      ["GET /api/catalogue/products", 2, "1700000000000250000", "1700000000001500000", undefined],
      ["POST /api/payment/create", 2, "1700000000124000000", "1764000000000000000", 2],
      ['select "quoted" \\ \u2028 é from products', 3, "1700000000000062500", "1700000000000500000", 2],
    ]);
    expect(sent[1]).toMatchObject({ parentSpanId: "1111111111111111", traceState: "vendor=x,other=y" });
    expect(sent[2]!.attributes).toEqual(expect.arrayContaining([{ key: "negative", value: { intValue: "-42" } }, { key: "big", value: { intValue: String(2 ** 40) } }]));
  });

  it("sends every span of many batches intact with gzip, and a span larger than a batch whole", async () => {
    const { url, received } = await collector();
    const { exporter: spans, problems } = exporter(url, "http/protobuf", { maxBatchSize: 50, compression: "gzip" });
    const long = `SELECT ${"x".repeat(300 * 1024)} é`;
    for (let n = 1; n <= 1_000; n++) {
      const spanId = n.toString(16).padStart(16, "0");
      if (n % 3 === 0) spans.addServerSpan({ ...ids, spanId, startMs: 1_700_000_000_000 + n, endMs: 1_700_000_000_001 + n }, "GET", "/products/:id", 200);
      else spans.addSpan({ ...ids, spanId, name: n === 500 ? long : `query ${n}`, kind: "client", startMs: 1_700_000_000_000, endMs: 1_700_000_000_001, attributes: { n } });
      if (n % 75 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await spans.shutdown();
    expect(problems).toEqual([]);
    const sent = received.flatMap((r) => r.body.resourceSpans[0]!.scopeSpans![0]!.spans!);
    expect(sent.map((s) => Number.parseInt(s.spanId, 16))).toEqual(Array.from({ length: 1_000 }, (_, i) => i + 1));
    expect(sent.find((s) => s.spanId === (500).toString(16).padStart(16, "0"))!.name).toBe(long);
    expect(received.every((r) => r.body.resourceSpans[0]!.resource!.attributes!.length === 2)).toBe(true);
  });
});

it("writes epoch milliseconds as the exact fixed64 nanoseconds unixNanos writes in decimal", () => {
  const bytes = Buffer.alloc(8);
  const exact = (ms: number) => {
    let whole = Math.floor(ms);
    let fraction = Math.round((ms - whole) * 1e6);
    if (fraction >= 1e6) [whole, fraction] = [whole + 1, 0];
    return BigInt(whole) * 1_000_000n + BigInt(fraction);
  };
  const samples = [0, 1, 65_535.5, 65_536, 1_700_000_000_000.25, 1_700_000_000_123 + 0.999_999_9, 4_294_967_295_999 + 0.999, 4_398_046_511_103 + 0.0001];
  for (let i = 0; i < 2_000; i++) samples.push(Math.random() * 4e12);
  for (const ms of samples) {
    expect(writeNanos(bytes, 0, ms)).toBe(8);
    expect(bytes.readBigUInt64LE(0)).toBe(exact(ms));
  }
});

it("writes varints at each length's edges", () => {
  const bytes = Buffer.alloc(5);
  for (const n of [0, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, 268_435_455, 268_435_456, 2 ** 32 - 1]) {
    const end = writeVarint(bytes, 0, n);
    expect(end).toBe(varintSize(n));
    let value = 0;
    for (let i = end - 1; i >= 0; i--) value = value * 128 + (bytes[i]! & 0x7f);
    expect(value).toBe(n);
  }
});
