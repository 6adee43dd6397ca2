import { describe, expect, it } from "vitest";
import { ConfigError, isSecret, loadConfig } from "./config.ts";

// A malformed secret variable is named in the start-up error, its value never printed.

function errorOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("no error");
}

describe("start-up errors about secrets", () => {
  it.each([
    ["STRIPE_SECRET_KEY", "sk-live-hunter2-oops"],
    ["STRIPE_SECRET_KEY", "pk_live_hunter2"],
    ["DATABASE_URL", "shop:hunter2@db.internal"],
    ["STRIPE_PUBLISHABLE_KEY", "hunter2-not-a-pk"],
    ["STRIPE_WEBHOOK_SECRET", "hunter2 with spaces"],
    ["DATABASE_URL", "postgres://shop:hunter2@db internal/shop"],
    ["DATABASE_URL", "postgress//shop:hunter2@db.internal/shop"],
    ["CATALOGUE_URL", "ftp://user:hunter2@catalogue.example"],
  ])("name %s and never print its value", (name, value) => {
    const message = errorOf({ [name]: value });
    expect(message).toMatch(new RegExp(`^Invalid environment variable ${name}: `));
    expect(message).not.toContain("hunter2");
  });

  it("still shows the value of an ordinary variable, which helps fixing it", () => {
    expect(errorOf({ PORT: "eighty" })).toBe('Invalid environment variable PORT: Invalid input: expected number, received NaN (got "eighty")');
  });

  it.each([
    ["OTEL_EXPORTER_OTLP_ENDPOINT", "http://u:hunter2@h x", '(got "http://h x")'],
    ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "ftp://collector:hunter2@otel.example", '(got "ftp://otel.example")'],
    ["PORT", "http://ops:hunter2@[::1]:80", '(got "http://[::1]:80")'],
    ["CATALOGUE_IMAGE_ORIGINS", "https://cdn.example, https://u:hunter2@images.example", '"https://images.example" is not one (got "https://cdn.example, https://images.example")'],
  ])("prints the URL in %s without its user and password", (name, value, shown) => {
    const message = errorOf({ [name]: value });
    expect(message).toMatch(new RegExp(`^Invalid environment variable ${name}: `));
    expect(message).toContain(shown);
    expect(message).not.toContain("hunter2");
  });

  it("keeps its own hints whole", () => {
    expect(errorOf({ SMTP_URL: "smtp.example" })).toBe("Invalid environment variable SMTP_URL: must be an smtp:// or smtps:// URL (smtp://user:pass@host:587)");
  });

  it.each(["SMTP_URL", "AUTH_SECRET", "ANY_API_KEY", "STRIPE_ANYTHING"])("counts %s as a secret whatever its value", (name) => {
    expect(isSecret(name, "x")).toBe(true);
  });

  it.each([
    ["PORT", "80"],
    ["DATABASE_URL", "nonsense"],
    ["CATALOGUE_URL", "https://catalogue.example"],
    ["LOG_LEVEL", "loud"],
  ])("counts %s=%s as no secret", (name, value) => {
    expect(isSecret(name, value)).toBe(false);
  });
});
