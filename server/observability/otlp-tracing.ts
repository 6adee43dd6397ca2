// Loaded only when tracing is configured (see tracing.ts).
//
// Why not the OpenTelemetry SDK: with it, tracing every request cost the catalogue API a quarter of
// its requests per second (docs/BENCHMARKS.md: an SDK span, its JSON export and their garbage, 30 to
// 45 µs per request on a path that costs about 110 µs). This records the same spans with the same
// wire formats (OTLP/HTTP protobuf or JSON, W3C trace context, the standard OTEL_* variables) for a
// few µs: a span is a few strings while it runs, written into its batch's buffer once it ends.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Logger } from "../log.ts";
import { resourceAttributes, type TracingConfig } from "./otel-config.ts";
import { OtlpExporter } from "./otlp-exporter.ts";
import type { Traced } from "./port.ts";
import { newSpanId, newTraceId, parseTraceparent, sampler, type SpanContext } from "./trace-context.ts";
import type { RequestResponse, RequestSpan, Tracing } from "./tracing.ts";

/** Epoch milliseconds with sub-millisecond precision (monotonic within the process). */
const origin = performance.timeOrigin;
const now = () => origin + performance.now();

/** Export problems are logged at most this often (a collector that is down fails every batch). */
const PROBLEM_LOG_EVERY_MS = 60_000;

export function startOtlpTracing(config: TracingConfig, url: string, log: Logger): Tracing {
  let lastProblemLogged = -Infinity;
  let spansLost = 0;
  const exporter = new OtlpExporter({
    url,
    headers: { ...config.OTEL_EXPORTER_OTLP_HEADERS, ...config.OTEL_EXPORTER_OTLP_TRACES_HEADERS },
    timeoutMs: config.OTEL_EXPORTER_OTLP_TIMEOUT,
    compression: config.OTEL_EXPORTER_OTLP_COMPRESSION,
    protocol: config.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? config.OTEL_EXPORTER_OTLP_PROTOCOL,
    scheduleDelayMs: config.OTEL_BSP_SCHEDULE_DELAY,
    maxQueueSize: config.OTEL_BSP_MAX_QUEUE_SIZE,
    maxBatchSize: Math.min(config.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, config.OTEL_BSP_MAX_QUEUE_SIZE),
    resource: resourceAttributes(config),
    onProblem({ reason, spans }) {
      spansLost += spans;
      if (performance.now() - lastProblemLogged < PROBLEM_LOG_EVERY_MS) return;
      lastProblemLogged = performance.now();
      log.warn({ reason, spansLost }, "tracing: spans could not be exported");
      spansLost = 0;
    },
  });
  const sample = sampler(config.OTEL_TRACES_SAMPLER, config.OTEL_TRACES_SAMPLER_ARG);
  // The current span across awaits: a request's queries and gateway calls find their parent here.
  const current = new AsyncLocalStorage<SpanContext>();
  // On Node 20 a storage that has run keeps async_hooks' promise hooks on for every promise of the
  // process until it is disabled: a quarter of the tracing's cost on the catalogue API, whose answers
  // never enter it. So it is disabled whenever no traced work is under way (a request until its
  // response is done, a child span until it settles), as QuietStorages does for better-auth's; the
  // next `run` enables it again. Work a request leaves running after its response is done (none
  // in the shop) would start its spans outside the request's trace.
  let underWay = 0;
  const leave = () => {
    if (--underWay === 0) current.disable();
  };

  /** A client span for `run`: a child of the current span; outside a request a trace of its own, where `outsideRequests` allows. */
  const childSpan =
    (outsideRequests: boolean): Traced =>
    (name, attributes, run) => {
      const parent = current.getStore();
      if (parent ? !parent.sampled : !outsideRequests) return run();
      const traceId = parent?.traceId ?? newTraceId();
      if (!parent && !sample(null, traceId)) return run();
      const span: SpanContext = { traceId, spanId: newSpanId(), sampled: true, traceState: parent?.traceState };
      const startMs = now();
      underWay++;
      return current.run(span, async () => {
        let error: string | undefined;
        try {
          return await run();
        } catch (caught) {
          error = caught instanceof Error ? caught.name : typeof caught;
          throw caught;
        } finally {
          leave();
          exporter.addSpan({ traceId, spanId: span.spanId, parentSpanId: parent?.spanId, traceState: span.traceState, name, kind: "client", startMs, endMs: now(), attributes, error });
        }
      });
    };

  /** A request's span, continuing the caller's traceparent, and where its children find it. */
  const serverSpan = (header: (name: string) => string | undefined): { context: SpanContext; span: RequestSpan } => {
    const traceparent = header("traceparent");
    // Most requests come without a caller's trace: then there is no tracestate to read either.
    const parent = traceparent === undefined ? null : parseTraceparent(traceparent, header("tracestate"));
    const traceId = parent?.traceId ?? newTraceId();
    const context: SpanContext = { traceId, spanId: newSpanId(), sampled: sample(parent, traceId), traceState: parent?.traceState };
    const startMs = now();
    const span: RequestSpan = {
      traceId,
      finish(method, route, status) {
        if (!context.sampled) return;
        const { spanId, traceState } = context;
        exporter.addServerSpan({ traceId, spanId, parentSpanId: parent?.spanId, traceState, startMs, endMs: now() }, method, route, status);
      },
    };
    return { context, span };
  };

  return {
    enabled: true,
    trace: childSpan(true),
    traceQuery: childSpan(false),
    request<T>(header: (name: string) => string | undefined, handle: (span: RequestSpan) => Promise<T>, response?: RequestResponse): Promise<T> {
      const { context, span } = serverSpan(header);
      // A trace that is not recorded needs no current span: its children would not be recorded either.
      if (!context.sampled) return handle(span);
      // Under way until the handler has settled and, on node:http, the response is done (a body
      // streamed after the handler returned, React Router's deferred data, is still the request's work).
      underWay++;
      if (response && !response.closed) {
        underWay++;
        response.once("close", leave);
      }
      let answered: Promise<T>;
      try {
        answered = current.run(context, handle, span);
      } catch (error) {
        leave();
        throw error;
      }
      answered.then(leave, leave);
      return answered;
    },
    span: (header) => serverSpan(header).span,
    shutdown: () => exporter.shutdown(),
  };
}
