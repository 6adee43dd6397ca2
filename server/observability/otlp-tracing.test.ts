import { EventEmitter } from "node:events";
import { afterEach, expect, it } from "vitest";
import { memoryLogger } from "../../test/support/logger.ts";
import { type ReceivedSpan, startOtlpReceiver } from "../../test/support/otlp-receiver.ts";
import { otelVariables, type TracingConfig } from "./otel-config.ts";
import { startOtlpTracing } from "./otlp-tracing.ts";
import type { Tracing } from "./tracing.ts";

// Tracing's storage is disabled whenever no traced work is under way (otlp-tracing.ts): a request's
// queries must still find their request's span, however requests overlap and whenever they start.

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tracing(): Promise<{ tracing: Tracing; spans: (count: number) => Promise<ReceivedSpan[]> }> {
  const receiver = await startOtlpReceiver();
  cleanups.push(receiver.close);
  const defaults = Object.fromEntries(Object.entries(otelVariables).map(([name, schema]) => [name, schema.parse(undefined)]));
  const config = { ...defaults, OTEL_BSP_SCHEDULE_DELAY: 20, INSTANCE_NAME: "test" } as TracingConfig;
  const started = startOtlpTracing(config, `${receiver.url}/v1/traces`, memoryLogger().log);
  cleanups.push(() => started.shutdown());
  return { tracing: started, spans: (count) => receiver.until((all) => all.length >= count) };
}

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const noHeader = () => undefined;
const pause = () => new Promise((resolve) => setImmediate(resolve));

/** A query as the traced dialect runs one: a child span of whatever span is current. */
const query = (t: Tracing, text: string) => t.traceQuery("SELECT", { "db.query.text": text }, async () => void (await pause()));

/** The request span named `route` and the query spans whose parent it is. */
function family(spans: ReceivedSpan[], route: string) {
  const request = spans.find((span) => span.name === `GET ${route}`);
  expect(request, route).toBeDefined();
  return { request: request!, queries: spans.filter((span) => span.parentSpanId === request!.spanId).map((span) => span.attributes["db.query.text"]) };
}

it("parents each of two overlapping requests' queries to its own span, before and after the other has finished", async () => {
  const { tracing: t, spans } = await tracing();
  const aMayGoOn = gate();
  const a = t.request(noHeader, async (span) => {
    await query(t, "a1");
    await aMayGoOn.opened;
    // B has started, queried and finished meanwhile: A's work is still A's.
    await query(t, "a2");
    span.finish("GET", "/a", 200);
  });
  await pause();
  const b = t.request(noHeader, async (span) => {
    await query(t, "b1");
    await pause();
    await query(t, "b2");
    span.finish("GET", "/b", 200);
  });
  await b;
  aMayGoOn.open();
  await a;
  // Nothing under way now: a new request is traced as the first ones were.
  await t.request(noHeader, async (span) => {
    await query(t, "c1");
    span.finish("GET", "/c", 200);
  });
  // And a query outside any request has no span (background work: traceQuery records none).
  await query(t, "outside");

  const all = await spans(8);
  expect(family(all, "/a").queries.sort()).toEqual(["a1", "a2"]);
  expect(family(all, "/b").queries.sort()).toEqual(["b1", "b2"]);
  expect(family(all, "/c").queries).toEqual(["c1"]);
  expect(new Set([family(all, "/a").request.traceId, family(all, "/b").request.traceId, family(all, "/c").request.traceId]).size).toBe(3);
  for (const route of ["/a", "/b", "/c"]) {
    const { request } = family(all, route);
    expect(all.filter((span) => span.parentSpanId === request.spanId).every((span) => span.traceId === request.traceId)).toBe(true);
  }
  expect(all.some((span) => span.attributes["db.query.text"] === "outside")).toBe(false);
});

it("keeps a request's span current for work done after its handler returned, until its response is done", async () => {
  const { tracing: t, spans } = await tracing();
  const response = Object.assign(new EventEmitter(), { closed: false });
  const bodyWritten = gate();
  let streaming: Promise<void> = Promise.resolve();
  await t.request(
    noHeader,
    async (span) => {
      span.finish("GET", "/streamed", 200);
      // As a streamed body's deferred data: read after the handler has given its response.
      streaming = (async () => {
        await bodyWritten.opened;
        await query(t, "deferred");
      })();
    },
    response,
  );
  // Another request starts and ends meanwhile; the first one's response is not done.
  await t.request(noHeader, async (span) => span.finish("GET", "/other", 200));
  bodyWritten.open();
  await streaming;
  response.closed = true;
  response.emit("close");
  await t.request(noHeader, async (span) => {
    await query(t, "after");
    span.finish("GET", "/after", 200);
  });

  const all = await spans(5);
  expect(family(all, "/streamed").queries).toEqual(["deferred"]);
  expect(family(all, "/other").queries).toEqual([]);
  expect(family(all, "/after").queries).toEqual(["after"]);
});

it("parents child spans of many concurrent requests, each to its own", async () => {
  const { tracing: t, spans } = await tracing();
  const routes = Array.from({ length: 20 }, (_, i) => `/r${i}`);
  await Promise.all(
    routes.map((route, i) =>
      t.request(noHeader, async (span) => {
        for (let step = 0; step < (i % 4) + 1; step++) {
          await query(t, `${route} ${step}`);
          if (i % 3 === 0) await pause();
        }
        // A gateway call's span, with a query inside it: a grandchild of the request.
        await t.trace("payment gateway call", {}, () => query(t, `${route} nested`));
        span.finish("GET", route, 200);
      }),
    ),
  );
  const expected = routes.reduce((sum, _, i) => sum + 1 + (i % 4) + 1 + 2, 0);
  const all = await spans(expected);
  for (const [i, route] of routes.entries()) {
    const { request, queries } = family(all, route);
    expect(queries.filter((text) => text !== undefined).sort()).toEqual(Array.from({ length: (i % 4) + 1 }, (_, step) => `${route} ${step}`));
    const gateway = all.find((span) => span.name === "payment gateway call" && span.parentSpanId === request.spanId)!;
    expect(gateway).toBeDefined();
    expect(all.filter((span) => span.parentSpanId === gateway.spanId).map((span) => span.attributes["db.query.text"])).toEqual([`${route} nested`]);
  }
});
