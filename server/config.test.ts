import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("serves the embedded mode with no variables set", () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.CATALOGUE_URL).toBeUndefined();
    expect(config.PUBLIC_URL).toBe("http://localhost:3000");
    expect(config.DATA_DIR).toMatch(/\/data$/);
  });

  it("accepts a PostgreSQL URL and a remote catalogue", () => {
    const config = loadConfig({
      DATABASE_URL: "postgres://shop@db.internal:5432/shop",
      CATALOGUE_URL: "https://catalogue.example",
      PORT: "8080",
    });
    expect(config.DATABASE_URL).toBe("postgres://shop@db.internal:5432/shop");
    expect(config.PORT).toBe(8080);
  });

  it.each([
    ["DATABASE_URL", "nonsense"],
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["PUBLIC_URL", "shop.example"],
    ["CATALOGUE_URL", "ftp://catalogue.example"],
    ["CATALOGUE_TIMEOUT_MS", "-5"],
    ["NODE_ENV", "staging"],
  ])("names %s when it is malformed (%s)", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid environment variable ${name}: .*${value}`));
  });
});
