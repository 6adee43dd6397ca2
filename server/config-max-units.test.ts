import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("MAX_UNITS_PER_PRODUCT", () => {
  it("is 10 unless set, and takes any positive whole number", () => {
    expect(loadConfig({}).MAX_UNITS_PER_PRODUCT).toBe(10);
    expect(loadConfig({ MAX_UNITS_PER_PRODUCT: "25" }).MAX_UNITS_PER_PRODUCT).toBe(25);
  });

  it.each(["0", "-1", "2.5", "ten"])("stops the server on %s, naming the variable", (value) => {
    expect(() => loadConfig({ MAX_UNITS_PER_PRODUCT: value })).toThrow(ConfigError);
    expect(() => loadConfig({ MAX_UNITS_PER_PRODUCT: value })).toThrow(/MAX_UNITS_PER_PRODUCT/);
  });
});
