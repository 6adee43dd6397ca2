import { type TracingConfig, tracesEndpoint } from "./otel-config.ts";
import type { Logger } from "../log.ts";
import { untraced } from "./port.ts";
import type { RequestSpan, Tracing } from "./tracing-port.ts";

export type { RequestResponse, RequestSpan, Tracing } from "./tracing-port.ts";

const NO_SPAN: RequestSpan = { traceId: "", finish() {} };

/** Tracing off: nothing loaded, nothing recorded. */
export const noTracing: Tracing = {
  enabled: false,
  trace: untraced,
  traceQuery: untraced,
  request: (_header, handle) => handle(NO_SPAN),
  span: () => NO_SPAN,
  shutdown: async () => {},
};

/**
 * Spans by OpenTelemetry's SDK, exported over OTLP/HTTP, when an endpoint is configured, loaded
 * only then (a dynamic import: without an endpoint none of the SDK is loaded); otherwise `noTracing`.
 */
export async function startTracing(config: TracingConfig, log: Logger): Promise<Tracing> {
  const url = tracesEndpoint(config);
  if (!url) return noTracing;
  const { startOtelTracing } = await import("./otel-tracing.ts");
  const tracing = await startOtelTracing(config, url, log);
  const protocol = config.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? config.OTEL_EXPORTER_OTLP_PROTOCOL;
  log.info({ endpoint: url, protocol, sampler: config.OTEL_TRACES_SAMPLER, ratio: config.OTEL_TRACES_SAMPLER_ARG }, "tracing: exporting spans over OTLP/HTTP");
  return tracing;
}
