import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.ts";
import { pageRoutes } from "./page-routes.ts";
import { resourceAttributes, tracesEndpoint } from "./otel-config.ts";

describe("operability settings", () => {
  it("leave metrics and tracing off by default, the metrics listener on 127.0.0.1 when on", () => {
    const config = loadConfig({});
    expect([config.METRICS_PORT, config.METRICS_HOST, config.OTEL_SERVICE_NAME, config.SHUTDOWN_DRAIN_SECONDS]).toEqual([undefined, "127.0.0.1", undefined, 0]);
    expect(tracesEndpoint(config)).toBeNull();
    expect(loadConfig({ METRICS_PORT: "9464" }).METRICS_PORT).toBe(9464);
  });

  it("refuse a malformed value with one line naming the variable", () => {
    expect(() => loadConfig({ METRICS_PORT: "ninety" })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_PORT: "70000" })).toThrow(/^Invalid environment variable METRICS_PORT/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(/^Invalid environment variable OTEL_EXPORTER_OTLP_ENDPOINT: must be an http/);
    expect(() => loadConfig({ OTEL_SDK_DISABLED: "yes" })).toThrow(/^Invalid environment variable OTEL_SDK_DISABLED: must be true or false/);
    expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: "-1" })).toThrow(/^Invalid environment variable SHUTDOWN_DRAIN_SECONDS/);
  });

  it("send spans to the general endpoint's /v1/traces, or to the traces endpoint as given, unless the SDK is disabled", () => {
    expect(tracesEndpoint(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }))).toBe("http://collector:4318/v1/traces");
    const both = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/otlp" };
    expect(tracesEndpoint(loadConfig(both))).toBe("https://traces.example/otlp");
    expect(tracesEndpoint(loadConfig({ ...both, OTEL_SDK_DISABLED: "true" }))).toBeNull();
  });
});

describe("the standard OpenTelemetry variables", () => {
  it("read the collector's headers, the sampler, the batching and the resource", () => {
    const config = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20abc, x-tenant = shop",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.25",
      OTEL_BSP_SCHEDULE_DELAY: "200",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=staging,service.name=ignored",
      OTEL_SERVICE_NAME: "shop-eu",
      INSTANCE_NAME: "web-1",
    });
    expect(config.OTEL_EXPORTER_OTLP_HEADERS).toEqual({ authorization: "Bearer abc", "x-tenant": "shop" });
    expect([config.OTEL_TRACES_SAMPLER, config.OTEL_TRACES_SAMPLER_ARG, config.OTEL_BSP_SCHEDULE_DELAY]).toEqual(["parentbased_traceidratio", 0.25, 200]);
    expect(resourceAttributes(config, 42)).toMatchObject({ "service.name": "shop-eu", "deployment.environment": "staging", "service.instance.id": "web-1:42" });
    expect(resourceAttributes(loadConfig({ OTEL_RESOURCE_ATTRIBUTES: "service.name=from-resource" }))["service.name"]).toBe("from-resource");
    expect(resourceAttributes(loadConfig({}))["service.name"]).toBe("storefront");
    // The spec's defaults: every request traced unless the caller said not to, batches of 512 every 5 s.
    const defaults = loadConfig({});
    expect([defaults.OTEL_TRACES_SAMPLER, defaults.OTEL_BSP_SCHEDULE_DELAY, defaults.OTEL_BSP_MAX_EXPORT_BATCH_SIZE, defaults.OTEL_BSP_MAX_QUEUE_SIZE]).toEqual([
      "parentbased_always_on",
      5000,
      512,
      2048,
    ]);
  });

  it("refuse what the shop cannot do, never printing the collector's credentials", () => {
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER: "jaeger_remote" })).toThrow(/^Invalid environment variable OTEL_TRACES_SAMPLER: must be always_on/);
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER_ARG: "2" })).toThrow(/^Invalid environment variable OTEL_TRACES_SAMPLER_ARG: must be a ratio from 0 to 1/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toThrow(/^Invalid environment variable OTEL_EXPORTER_OTLP_PROTOCOL: must be http\/protobuf or http\/json/);
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc" })).toThrow(/^Invalid environment variable OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: must be http\/protobuf or http\/json/);
    // The specification's default, and JSON when asked.
    expect(loadConfig({}).OTEL_EXPORTER_OTLP_PROTOCOL).toBe("http/protobuf");
    expect(loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }).OTEL_EXPORTER_OTLP_PROTOCOL).toBe("http/json");
    let message = "";
    try {
      loadConfig({ OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer secret-token%zz" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Invalid environment variable OTEL_EXPORTER_OTLP_HEADERS: must be a comma-separated list of key=value pairs/);
    expect(message).not.toContain("secret-token");
  });
});

describe("page route patterns", () => {
  // The shape of React Router's build.routes: a root layout, an index page, nested and splat routes.
  const routes = pageRoutes({
    root: { id: "root", path: "" },
    "routes/home": { id: "routes/home", parentId: "root", index: true },
    "routes/product": { id: "routes/product", parentId: "root", path: "products/:productId" },
    "routes/results": { id: "routes/results", parentId: "root", path: "results/:categoryName" },
    "routes/orders": { id: "routes/orders", parentId: "root", path: "orders" },
    "routes/not-found": { id: "routes/not-found", parentId: "root", path: "*" },
  });

  it("name each page address by its pattern, data requests with .data, and anything else null (the 404 page)", () => {
    expect(["/", "/products/7", "/products/7/", "/results/men's%20clothing", "/orders"].map(routes)).toEqual([
      "/",
      "/products/:productId",
      "/products/:productId",
      "/results/:categoryName",
      "/orders",
    ]);
    expect([routes("/products/7.data"), routes("/_root.data"), routes("/orders.data")]).toEqual(["/products/:productId.data", "/_root.data", "/orders.data"]);
    expect([routes("/no/such/page"), routes("/products/7/reviews"), routes("/wp-admin.php.data")]).toEqual([null, null, null]);
  });
});
