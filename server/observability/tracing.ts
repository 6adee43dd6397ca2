import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import { type Traced, untraced } from "./port.ts";

/** The span of one HTTP request, while it is being answered. */
export interface RequestSpan {
  /** The trace this request belongs to (the caller's when a traceparent came), for the request log. */
  readonly traceId: string;
  /** Names the span after the route pattern, records the status and ends it. */
  finish(method: string, route: string, status: number): void;
}

export interface Tracing {
  readonly enabled: boolean;
  readonly trace: Traced;
  /**
   * Runs `handle` inside a server span that continues the caller's `traceparent` (W3C trace
   * context), so every span started meanwhile (queries, gateway calls) is its child.
   */
  request<T>(method: string, header: (name: string) => string | undefined, handle: (span: RequestSpan) => Promise<T>): Promise<T>;
  /** Sends what is still buffered; at shutdown. */
  shutdown(): Promise<void>;
}

/** Tracing off: nothing loaded, nothing recorded. */
export const noTracing: Tracing = {
  enabled: false,
  trace: untraced,
  request: (_method, _header, handle) => handle({ traceId: "", finish() {} }),
  shutdown: async () => {},
};

export type TracingConfig = Pick<Config, "OTEL_EXPORTER_OTLP_ENDPOINT" | "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" | "OTEL_SERVICE_NAME" | "OTEL_SDK_DISABLED">;

/** Where spans go: the traces endpoint as given, or the general endpoint's /v1/traces (as the OTLP spec says). */
export function tracesEndpoint(config: TracingConfig): string | null {
  if (config.OTEL_SDK_DISABLED) return null;
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT) return `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`;
  return null;
}

/**
 * OpenTelemetry when an OTLP endpoint is configured, loaded only then (a dynamic import: without
 * an endpoint not one OpenTelemetry module is read); otherwise `noTracing`.
 */
export async function startTracing(config: TracingConfig, log: Logger): Promise<Tracing> {
  const url = tracesEndpoint(config);
  if (!url) return noTracing;
  const { startOpenTelemetry } = await import("./otel.ts");
  const tracing = await startOpenTelemetry({ url, serviceName: config.OTEL_SERVICE_NAME });
  log.info({ endpoint: url, service: config.OTEL_SERVICE_NAME }, "tracing: exporting spans over OTLP/HTTP");
  return tracing;
}
