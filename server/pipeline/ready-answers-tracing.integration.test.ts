import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { type ReceivedSpan, startOtlpReceiver } from "../../test/support/otlp-receiver.ts";
import { eventually } from "../../test/support/poll.ts";
import { type RunningServer, startServer } from "../../test/support/server-process.ts";

// The built server with tracing on: an answer given in front of Hono (the second request
// for an address, the first one prepared or cached it) still exports its request span, continuing
// the caller's traceparent, and its log line names the trace.

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it("exports the span of an answer given in front of Hono (catalogue API, cached page) and names its trace in the log line", async () => {
  const receiver = await startOtlpReceiver();
  cleanups.push(receiver.close);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-ready-tracing-"));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const server: RunningServer = await startServer({
    DATA_DIR: dataDir,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_BSP_SCHEDULE_DELAY: "50",
    OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=test",
  });
  cleanups.push(() => server.stop("SIGKILL"));

  const traced = async (address: string) => {
    const traceId = randomBytes(16).toString("hex");
    const callerSpanId = randomBytes(8).toString("hex");
    const response = await fetch(`${server.url}${address}`, { headers: { traceparent: `00-${traceId}-${callerSpanId}-01` } });
    await response.arrayBuffer();
    return { traceId, callerSpanId, response };
  };
  const addresses = { "/api/catalogue/products": "/api/catalogue/products", "/products/1": "/products/:productId" };
  for (const [address, route] of Object.entries(addresses)) {
    await traced(address); // prepares or caches it
    const { traceId, callerSpanId, response } = await traced(address);
    expect(response.status).toBe(200);
    if (address.startsWith("/products")) expect(response.headers.get("x-page-cache")).toBe("hit");
    const isShared = (span: ReceivedSpan) => span.traceId === traceId;
    const spans = await receiver.until((all) => all.some(isShared));
    expect(spans.find(isShared)).toMatchObject({
      name: `GET ${route}`,
      parentSpanId: callerSpanId,
      attributes: { "http.route": route, "http.response.status_code": 200 },
      // OTEL_SERVICE_NAME unset: the shop's default name, beside OTEL_RESOURCE_ATTRIBUTES' and the SDK's own.
      resource: { "service.name": "storefront", "deployment.environment": "test", "telemetry.sdk.name": "opentelemetry" },
    });
    const id = response.headers.get("x-request-id");
    const line = await eventually(() => server.logs.find((record) => record.msg === "request" && record.requestId === id), (record) => record !== undefined);
    expect(line).toMatchObject({ route, status: 200, traceId });
  }
  // OTLP/HTTP protobuf, the specification's default protocol (tracing.db.test.ts runs JSON).
  expect(new Set(receiver.contentTypes)).toEqual(new Set(["application/x-protobuf"]));
}, 60_000);
