// Loaded only when tracing is configured (see tracing.ts). Its OpenTelemetry packages are imported
// dynamically too: the server bundle keeps them as run-time imports of this function alone, so a
// shop without tracing never reads them.
import type { Attributes, TextMapGetter } from "@opentelemetry/api";
import type { RequestSpan, Tracing } from "./tracing.ts";
import type { SpanAttributes } from "./port.ts";

type Header = (name: string) => string | undefined;

/** W3C trace context from the request's headers, read through the observer's header function. */
const HEADERS: TextMapGetter<Header> = {
  get: (header, key) => (key === "traceparent" || key === "tracestate" ? header(key) : undefined),
  keys: () => ["traceparent", "tracestate"],
};

function attributes(input: SpanAttributes): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined) out[key] = value;
  return out;
}

export async function startOpenTelemetry(options: { url: string; serviceName: string }): Promise<Tracing> {
  const [api, { NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, resources] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
  ]);
  const { context, propagation, trace, SpanKind, SpanStatusCode, ROOT_CONTEXT } = api;
  // OTEL_RESOURCE_ATTRIBUTES adds to the resource; the exporter and the batch processor read their
  // own standard variables (OTEL_EXPORTER_OTLP_HEADERS, OTEL_BSP_*, OTEL_TRACES_SAMPLER...).
  const resource = resources
    .resourceFromAttributes({ "service.name": options.serviceName })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: options.url }))] });
  // The async-hooks context manager (a span stays current across awaits) and W3C trace context.
  provider.register();
  const tracer = trace.getTracer("storefront");

  const traced: Tracing["trace"] = (name, spanAttributes, run) =>
    tracer.startActiveSpan(name, { kind: SpanKind.CLIENT, attributes: attributes(spanAttributes) }, async (span) => {
      try {
        return await run();
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    });

  return {
    enabled: true,
    trace: traced,
    request(method, header, handle) {
      // Most requests come without a caller's trace: then there is nothing to extract.
      const parent = header("traceparent") === undefined ? ROOT_CONTEXT : propagation.extract(ROOT_CONTEXT, header, HEADERS);
      const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { "http.request.method": method } }, parent);
      const requestSpan: RequestSpan = {
        traceId: span.spanContext().traceId,
        finish(finalMethod, route, status) {
          span.updateName(`${finalMethod} ${route}`);
          span.setAttribute("http.route", route);
          span.setAttribute("http.response.status_code", status);
          if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
      return context.with(trace.setSpan(parent, span), handle, undefined, requestSpan);
    },
    async shutdown() {
      await provider.shutdown();
    },
  };
}
