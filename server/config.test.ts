import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";
import { databaseTarget } from "./db/database.ts";

describe("loadConfig", () => {
  it("serves the embedded mode with no variables set", () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.CATALOGUE_URL).toBeUndefined();
    expect(config.PUBLIC_URL).toBe("http://localhost:3000");
    expect(config.DATA_DIR).toMatch(/\/data$/);
    expect(config.NODE_ENV).toBe("production");
  });

  it("trusts both spellings of this machine without a PUBLIC_URL, and only PUBLIC_URL's origin with one", () => {
    expect(loadConfig({ PORT: "3100" }).TRUSTED_ORIGINS).toEqual(["http://localhost:3100", "http://127.0.0.1:3100"]);
    expect(loadConfig({ PUBLIC_URL: "https://shop.example/" }).TRUSTED_ORIGINS).toEqual(["https://shop.example"]);
  });

  it("stops on one Stripe key without the other, naming both", () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: "sk_test_123" })).toThrow(
      /^Invalid environment variable STRIPE_PUBLISHABLE_KEY: STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together/,
    );
    expect(() => loadConfig({ STRIPE_PUBLISHABLE_KEY: "pk_test_123" })).toThrow(/STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY/);
    expect(loadConfig({ STRIPE_SECRET_KEY: "sk_test_1", STRIPE_PUBLISHABLE_KEY: "pk_test_1" }).STRIPE_PUBLISHABLE_KEY).toBe("pk_test_1");
  });

  it.each([
    ["true", 1],
    ["false", 0],
    ["2", 2],
  ])("reads TRUST_PROXY=%s as %d proxies", (value, hops) => {
    expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toBe(hops);
  });

  it("accepts a PostgreSQL URL and a remote catalogue", () => {
    const config = loadConfig({
      DATABASE_URL: "postgres://shop@db.internal:5432/shop",
      CATALOGUE_URL: "https://catalogue.example",
      PORT: "8080",
    });
    expect(config.DATABASE_URL).toBe("postgres://shop@db.internal:5432/shop");
    expect(config.PORT).toBe(8080);
    expect(config.DATABASE_POOL_SIZE).toBe(10);
    expect(databaseTarget(config)).toMatchObject({ engine: "postgres", maxConnections: 10 });
    const bigger = loadConfig({ DATABASE_URL: "postgres://shop@db.internal:5432/shop", DATABASE_POOL_SIZE: "40" });
    expect(databaseTarget(bigger)).toMatchObject({ engine: "postgres", maxConnections: 40 });
  });

  it("reads the image origins a remote catalogue's images may come from", () => {
    expect(loadConfig({}).CATALOGUE_IMAGE_ORIGINS).toEqual([]);
    expect(loadConfig({ CATALOGUE_IMAGE_ORIGINS: "https://fakestoreapi.com, http://img.example:8080/" }).CATALOGUE_IMAGE_ORIGINS).toEqual([
      "https://fakestoreapi.com",
      "http://img.example:8080",
    ]);
    expect(loadConfig({}).IMAGE_CACHE_MB).toBe(200);
  });

  it("keeps the back office's clock in UTC and marks 5 units or fewer as low stock unless told otherwise", () => {
    expect(loadConfig({})).toMatchObject({ SHOP_TIME_ZONE: "UTC", LOW_STOCK_THRESHOLD: 5 });
    expect(loadConfig({ SHOP_TIME_ZONE: "Europe/Berlin", LOW_STOCK_THRESHOLD: "0" })).toMatchObject({ SHOP_TIME_ZONE: "Europe/Berlin", LOW_STOCK_THRESHOLD: 0 });
    expect(loadConfig({ SHOP_TIME_ZONE: "America/Argentina/Buenos_Aires" }).SHOP_TIME_ZONE).toBe("America/Argentina/Buenos_Aires");
    // An offset is not a zone: it knows no summer time.
    expect(() => loadConfig({ SHOP_TIME_ZONE: "+02:00" })).toThrow(/^Invalid environment variable SHOP_TIME_ZONE: must be an IANA time zone name/);
  });

  it.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["PUBLIC_URL", "shop.example"],
    ["CATALOGUE_URL", "ftp://catalogue.example"],
    ["CATALOGUE_TIMEOUT_MS", "-5"],
    ["CATALOGUE_IMAGE_ORIGINS", "https://fakestoreapi.com/img"],
    ["CATALOGUE_IMAGE_ORIGINS", "fakestoreapi.com"],
    ["IMAGE_CACHE_MB", "0"],
    ["NODE_ENV", "staging"],
    ["TRUST_PROXY", "maybe"],
    ["AUTH_RATE_LIMIT_MAX", "0"],
    ["DATABASE_POOL_SIZE", "0"],
    ["DATABASE_POOL_SIZE", "many"],
    ["SHOP_TIME_ZONE", "Mars/Olympus"],
    ["SHOP_TIME_ZONE", "GMT 2"],
    ["LOW_STOCK_THRESHOLD", "-1"],
    ["LOW_STOCK_THRESHOLD", "few"],
  ])("names %s when it is malformed (%s)", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid environment variable ${name}: .*${value}`));
  });
  // Secrets (STRIPE_*, DATABASE_URL, ...) are named without their value: config-secrets.test.ts.
});
