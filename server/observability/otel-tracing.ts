// Loaded only when tracing is configured (see tracing.ts). The OpenTelemetry packages are imported
// here with import(), not at the top: the bundler would hoist static imports of external packages
// into the server's entry, and a shop without an endpoint is to load none of them.
import { createRequire } from "node:module";
import type { Context, Span, TextMapGetter } from "@opentelemetry/api";
import type * as SdkTraceNode from "@opentelemetry/sdk-trace-node";
import type { Sampler } from "@opentelemetry/sdk-trace-node";
import type { Logger } from "../log.ts";
import { resourceAttributes, type TracingConfig } from "./otel-config.ts";
import type { Traced } from "./port.ts";
import { QuietContextManager } from "./quiet-context-manager.ts";
import type { RequestResponse, RequestSpan, Tracing } from "./tracing-port.ts";

/** Export problems are logged at most this often (a collector that is down fails every batch). */
const PROBLEM_LOG_EVERY_MS = 60_000;

type Header = (name: string) => string | undefined;
/** The W3C propagator reads the request's headers through this: only traceparent and tracestate are asked for. */
const headerGetter: TextMapGetter<Header> = { keys: () => [], get: (header, key) => header(key) };

export async function startOtelTracing(config: TracingConfig, url: string, log: Logger): Promise<Tracing> {
  const [api, core, resources, node, semconv, { registerInstrumentations }, { PgInstrumentation }] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/core"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/semantic-conventions"),
    import("@opentelemetry/instrumentation"),
    import("@opentelemetry/instrumentation-pg"),
  ]);
  const { context, propagation, trace, SpanKind, SpanStatusCode, TraceFlags, ROOT_CONTEXT } = api;
  const protocol = config.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? config.OTEL_EXPORTER_OTLP_PROTOCOL;
  const { OTLPTraceExporter } = protocol === "http/json" ? await import("@opentelemetry/exporter-trace-otlp-http") : await import("@opentelemetry/exporter-trace-otlp-proto");

  // Everything comes from the configuration the shop validated at start (otel-config.ts), so what
  // was checked is what is used; the SDK still reads what it alone knows how to pass
  // (OTEL_EXPORTER_OTLP_COMPRESSION) from the same variables.
  const exporter = new OTLPTraceExporter({
    url,
    headers: { ...config.OTEL_EXPORTER_OTLP_HEADERS, ...config.OTEL_EXPORTER_OTLP_TRACES_HEADERS },
    timeoutMillis: config.OTEL_EXPORTER_OTLP_TIMEOUT,
  });
  const provider = new node.NodeTracerProvider({
    resource: resources.defaultResource().merge(resources.resourceFromAttributes(resourceAttributes(config))),
    sampler: sampler(node, config),
    spanProcessors: [
      new node.BatchSpanProcessor(exporter, {
        scheduledDelayMillis: config.OTEL_BSP_SCHEDULE_DELAY,
        maxQueueSize: config.OTEL_BSP_MAX_QUEUE_SIZE,
        maxExportBatchSize: Math.min(config.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, config.OTEL_BSP_MAX_QUEUE_SIZE),
        exportTimeoutMillis: config.OTEL_EXPORTER_OTLP_TIMEOUT,
      }),
    ],
  });
  const propagator = new core.W3CTraceContextPropagator();
  // A request's queries find its span across awaits (an AsyncLocalStorage, quiet while no traced
  // work is under way); the W3C propagator for anyone injecting traceparent into an outbound call.
  const contextManager = new QuietContextManager(ROOT_CONTEXT);
  provider.register({ propagator, contextManager });

  let lastProblemLogged = -Infinity;
  core.setGlobalErrorHandler((error) => {
    if (performance.now() - lastProblemLogged < PROBLEM_LOG_EVERY_MS) return;
    lastProblemLogged = performance.now();
    log.warn({ reason: error instanceof Error ? error.message : String(error) }, "tracing: spans could not be exported");
  });

  // pg's queries by OpenTelemetry's own instrumentation, only inside a traced request (background
  // polls would each start a trace), without a span per pool checkout. Its hook patches pg when
  // pg is require()d; the shop's import of pg (an ES module importing a CommonJS package) never
  // passes through require, and happened before this ran, so pg is required here once the hook is
  // in place: the same module object the import gave, whose Client it patches.
  const pgInstrumentation = new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true });
  registerInstrumentations({ tracerProvider: provider, instrumentations: [pgInstrumentation] });
  createRequire(import.meta.url)("pg");

  const tracer = provider.getTracer("storefront");

  /** A client span for `run`: a child of the current span; outside a request a trace of its own, where `outsideRequests` allows. */
  const childSpan =
    (outsideRequests: boolean): Traced =>
    (name, attributes, run) => {
      const parent = trace.getSpan(context.active());
      // Inside a request that is not sampled its children are not either (its sampled flag, not
      // isRecording: a streamed body's work comes after the request's span has ended); outside
      // one, only where allowed.
      if (parent ? (parent.spanContext().traceFlags & TraceFlags.SAMPLED) === 0 : !outsideRequests) return run();
      const release = contextManager.hold();
      return tracer.startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, async (span) => {
        try {
          return await run();
        } catch (caught) {
          // The error's type, never its message (which can carry data).
          span.setAttribute(semconv.ATTR_ERROR_TYPE, caught instanceof Error ? caught.name : typeof caught);
          span.setStatus({ code: SpanStatusCode.ERROR });
          throw caught;
        } finally {
          span.end();
          release();
        }
      });
    };

  /** A request's server span, continuing the caller's traceparent (and tracestate). */
  const serverSpan = (header: Header): { parent: Context; span: Span; request: RequestSpan } => {
    const parent = propagator.extract(ROOT_CONTEXT, header, headerGetter);
    // Named by its method and route once the route is known (finish).
    const span = tracer.startSpan("HTTP", { kind: SpanKind.SERVER }, parent);
    const request: RequestSpan = {
      traceId: span.spanContext().traceId,
      finish(method, route, status) {
        if (span.isRecording()) {
          span.updateName(`${method} ${route}`);
          span.setAttributes({ [semconv.ATTR_HTTP_REQUEST_METHOD]: method, [semconv.ATTR_HTTP_ROUTE]: route, [semconv.ATTR_HTTP_RESPONSE_STATUS_CODE]: status });
          if (status >= 500) {
            span.setAttribute(semconv.ATTR_ERROR_TYPE, String(status));
            span.setStatus({ code: SpanStatusCode.ERROR });
          }
        }
        span.end();
      },
    };
    return { parent, span, request };
  };

  return {
    enabled: true,
    trace: childSpan(true),
    traceQuery: childSpan(false),
    // Every span started while `handle` runs, and after it returned until the response is done (a
    // streamed body's deferred data), has the request's as its parent: the context manager carries
    // it across awaits. A request that is not sampled is current too, so that its children are not
    // recorded either.
    request: <T>(header: Header, handle: (span: RequestSpan) => Promise<T>, response?: RequestResponse) => {
      const { parent, span, request } = serverSpan(header);
      const handled = contextManager.hold();
      if (response && !response.closed) response.once("close", contextManager.hold());
      let answered: Promise<T>;
      try {
        answered = context.with(trace.setSpan(parent, span), handle, undefined, request);
      } catch (error) {
        handled();
        throw error;
      }
      answered.then(handled, handled);
      return answered;
    },
    span: (header) => serverSpan(header).request,
    async shutdown() {
      pgInstrumentation.disable();
      // Sends what is still queued.
      await provider.shutdown();
      // Unregistered, so that a tracing started again in this process (tests) can register its own.
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** OTEL_TRACES_SAMPLER as the SDK's samplers (the ratio ones keep a trace when its id falls below ratio x 2^64). */
function sampler(node: typeof SdkTraceNode, config: Pick<TracingConfig, "OTEL_TRACES_SAMPLER" | "OTEL_TRACES_SAMPLER_ARG">): Sampler {
  const ratio = new node.TraceIdRatioBasedSampler(config.OTEL_TRACES_SAMPLER_ARG);
  switch (config.OTEL_TRACES_SAMPLER) {
    case "always_on":
      return new node.AlwaysOnSampler();
    case "always_off":
      return new node.AlwaysOffSampler();
    case "traceidratio":
      return ratio;
    case "parentbased_always_on":
      return new node.ParentBasedSampler({ root: new node.AlwaysOnSampler() });
    case "parentbased_always_off":
      return new node.ParentBasedSampler({ root: new node.AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new node.ParentBasedSampler({ root: ratio });
  }
}
