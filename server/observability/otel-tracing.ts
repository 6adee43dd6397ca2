// Loaded only when tracing is configured (see tracing.ts). The OpenTelemetry packages are imported
// here with import(), not at the top: the bundler would hoist static imports of external packages
// into the server's entry, and a shop without an endpoint is to load none of them.
import { createRequire } from "node:module";
import type * as Core from "@opentelemetry/core";
import type * as Instrumentation from "@opentelemetry/instrumentation";
import type * as InstrumentationPg from "@opentelemetry/instrumentation-pg";
import type * as Resources from "@opentelemetry/resources";
import type * as SdkTraceNode from "@opentelemetry/sdk-trace-node";
import type { Sampler, SpanExporter } from "@opentelemetry/sdk-trace-node";
import type { Logger } from "../log.ts";
import { resourceAttributes, type TracingConfig } from "./otel-config.ts";
import { shopSpans } from "./otel-spans.ts";
import { QuietContextManager } from "./quiet-context-manager.ts";
import type { Tracing } from "./tracing-port.ts";

/** Export problems are logged at most this often (a collector that is down fails every batch). */
const PROBLEM_LOG_EVERY_MS = 60_000;

export async function startOtelTracing(config: TracingConfig, url: string, log: Logger): Promise<Tracing> {
  const [api, core, resources, node, semconv, instrumentation, instrumentationPg] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/core"),
    import("@opentelemetry/resources"),
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/semantic-conventions"),
    import("@opentelemetry/instrumentation"),
    import("@opentelemetry/instrumentation-pg"),
  ]);
  const { context, propagation, trace, ROOT_CONTEXT } = api;
  const provider = tracerProvider(node, resources, config, await exporter(config, url));
  const propagator = new core.W3CTraceContextPropagator();
  // A request's queries find its span across awaits (an AsyncLocalStorage, quiet while no traced
  // work is under way); the W3C propagator for anyone injecting traceparent into an outbound call.
  const contextManager = new QuietContextManager(ROOT_CONTEXT);
  provider.register({ propagator, contextManager });
  logExportProblems(core, log);
  const pgInstrumentation = instrumentPg(provider, instrumentation, instrumentationPg);

  return {
    enabled: true,
    ...shopSpans({ api, semconv, tracer: provider.getTracer("storefront"), propagator, contextManager }),
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

/** The OTLP/HTTP exporter of the configured protocol (protobuf unless http/json), to `url`. */
async function exporter(config: TracingConfig, url: string): Promise<SpanExporter> {
  const protocol = config.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? config.OTEL_EXPORTER_OTLP_PROTOCOL;
  const { OTLPTraceExporter } = protocol === "http/json" ? await import("@opentelemetry/exporter-trace-otlp-http") : await import("@opentelemetry/exporter-trace-otlp-proto");
  // Everything comes from the configuration the shop validated at start (otel-config.ts), so what
  // was checked is what is used; the SDK still reads what it alone knows how to pass
  // (OTEL_EXPORTER_OTLP_COMPRESSION) from the same variables.
  return new OTLPTraceExporter({
    url,
    headers: { ...config.OTEL_EXPORTER_OTLP_HEADERS, ...config.OTEL_EXPORTER_OTLP_TRACES_HEADERS },
    timeoutMillis: config.OTEL_EXPORTER_OTLP_TIMEOUT,
  });
}

/** The provider: the shop's resource, the configured sampler, spans batched to `exporter`. */
function tracerProvider(node: typeof SdkTraceNode, resources: typeof Resources, config: TracingConfig, exporter: SpanExporter): SdkTraceNode.NodeTracerProvider {
  return new node.NodeTracerProvider({
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
}

/** The SDK's problems (spans that could not be exported) as a warning, at most once a minute. */
function logExportProblems(core: typeof Core, log: Logger): void {
  let lastProblemLogged = -Infinity;
  core.setGlobalErrorHandler((error) => {
    if (performance.now() - lastProblemLogged < PROBLEM_LOG_EVERY_MS) return;
    lastProblemLogged = performance.now();
    log.warn({ reason: error instanceof Error ? error.message : String(error) }, "tracing: spans could not be exported");
  });
}

/**
 * pg's queries by OpenTelemetry's own instrumentation, only inside a traced request (background
 * polls would each start a trace), without a span per pool checkout. Its hook patches pg when
 * pg is require()d; the shop's import of pg (an ES module importing a CommonJS package) never
 * passes through require, and happened before this ran, so pg is required here once the hook is
 * in place: the same module object the import gave, whose Client it patches.
 */
function instrumentPg(
  provider: SdkTraceNode.NodeTracerProvider,
  { registerInstrumentations }: typeof Instrumentation,
  { PgInstrumentation }: typeof InstrumentationPg,
): InstrumentationPg.PgInstrumentation {
  const pgInstrumentation = new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true });
  registerInstrumentations({ tracerProvider: provider, instrumentations: [pgInstrumentation] });
  createRequire(import.meta.url)("pg");
  return pgInstrumentation;
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
