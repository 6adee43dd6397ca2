import { z } from "zod";

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" });
const positiveInt = z.coerce.number().int().positive();
const otlpProtocol = z.enum(["http/protobuf", "http/json"], {
  error: "must be http/protobuf or http/json (the shop exports OTLP over HTTP; OpenTelemetry's gRPC exporter is not installed)",
});

/** "key1=value1,key2=value2" (OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES), values percent-encoded. */
const keyValueList = z.string().transform((text, context) => {
  const pairs: Record<string, string> = {};
  for (const item of text.split(",").map((part) => part.trim()).filter(Boolean)) {
    const equals = item.indexOf("=");
    const key = equals > 0 ? item.slice(0, equals).trim() : "";
    let value: string | null = null;
    try {
      value = decodeURIComponent(item.slice(equals + 1).trim());
    } catch {
      // reported below
    }
    if (!key || value === null) {
      context.addIssue({ code: "custom", message: "must be a comma-separated list of key=value pairs (values percent-encoded)" });
      return z.NEVER;
    }
    pairs[key] = value;
  }
  return pairs;
});

/**
 * The standard OpenTelemetry variables the shop's tracing reads (the OpenTelemetry specification's
 * names and defaults), checked with the rest of the configuration at start.
 */
export const otelVariables = {
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl.optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl.optional(),
  OTEL_EXPORTER_OTLP_HEADERS: keyValueList.default({}),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: keyValueList.default({}),
  OTEL_EXPORTER_OTLP_TIMEOUT: positiveInt.default(10_000),
  OTEL_EXPORTER_OTLP_COMPRESSION: z.enum(["gzip", "none"], { error: "must be gzip or none" }).default("none"),
  // OTLP/HTTP with protobuf (the specification's default) or JSON. grpc is refused at start rather
  // than replaced by HTTP: a grpc endpoint (port 4317) does not take OTLP/HTTP, so a fallback would
  // start a shop whose every export fails. The traces' own variable wins over the general one.
  OTEL_EXPORTER_OTLP_PROTOCOL: otlpProtocol.default("http/protobuf"),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: otlpProtocol.optional(),
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  OTEL_RESOURCE_ATTRIBUTES: keyValueList.default({}),
  OTEL_SDK_DISABLED: z.enum(["true", "false"], { error: "must be true or false" }).default("false").transform((v) => v === "true"),
  OTEL_TRACES_SAMPLER: z
    .enum(["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"], {
      error: "must be always_on, always_off, traceidratio or parentbased_always_on, parentbased_always_off, parentbased_traceidratio",
    })
    .default("parentbased_always_on"),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0, "must be a ratio from 0 to 1").max(1, "must be a ratio from 0 to 1").default(1),
  OTEL_BSP_SCHEDULE_DELAY: positiveInt.default(5_000),
  OTEL_BSP_MAX_QUEUE_SIZE: positiveInt.default(2_048),
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: positiveInt.default(512),
};

type OtelVariables = z.infer<ReturnType<typeof z.object<typeof otelVariables>>>;
export type TracingConfig = OtelVariables & { INSTANCE_NAME: string };

/** Where spans go: the traces endpoint as given, or the general endpoint's /v1/traces (as the OTLP spec says). */
export function tracesEndpoint(config: Pick<TracingConfig, "OTEL_SDK_DISABLED" | "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT" | "OTEL_EXPORTER_OTLP_ENDPOINT">): string | null {
  if (config.OTEL_SDK_DISABLED) return null;
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT) return `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, "")}/v1/traces`;
  return null;
}

/**
 * The resource every span belongs to: OTEL_RESOURCE_ATTRIBUTES, with OTEL_SERVICE_NAME winning for
 * service.name (as the spec says), and "storefront" when neither names the service. The SDK adds
 * its own telemetry.sdk.* attributes.
 */
export function resourceAttributes(config: Pick<TracingConfig, "OTEL_RESOURCE_ATTRIBUTES" | "OTEL_SERVICE_NAME" | "INSTANCE_NAME">, pid = process.pid): Record<string, string> {
  return {
    "service.instance.id": `${config.INSTANCE_NAME}:${pid}`,
    ...config.OTEL_RESOURCE_ATTRIBUTES,
    "service.name": config.OTEL_SERVICE_NAME ?? config.OTEL_RESOURCE_ATTRIBUTES["service.name"] ?? "storefront",
  };
}
