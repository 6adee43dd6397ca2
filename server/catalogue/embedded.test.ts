import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { EmbeddedCatalogue } from "./embedded.ts";

const catalogue = new EmbeddedCatalogue();
const CATEGORIES = ["electronics", "jewelery", "men's clothing", "women's clothing"];

describe("the embedded catalogue", () => {
  it("has at least 20 products across exactly the four categories", async () => {
    const products = await catalogue.list();
    expect(products.length).toBeGreaterThanOrEqual(20);
    expect([...new Set(products.map((p) => p.category))].sort()).toEqual(CATEGORIES);
    for (const category of CATEGORIES) expect(products.filter((p) => p.category === category).length).toBeGreaterThanOrEqual(4);
  });

  it("gives every product its own image, a small SVG with explicit width and height", async () => {
    const products = await catalogue.list();
    const files = new Set(products.map((p) => p.image.split("?")[0]));
    expect(files.size).toBe(products.length);
    for (const [file, image] of catalogue.files) {
      const svg = image.body.toString("utf8");
      expect(svg, file).toMatch(/^<svg[^>]* width="\d+"[^>]* height="\d+"/);
      expect(svg, file).not.toMatch(/<script|<image|href="http/i);
      expect(image.body.length, file).toBeLessThan(8 * 1024);
    }
  });

  it("keeps prices in integer cents and ratings within 0..5", async () => {
    for (const product of await catalogue.list()) {
      expect(Number.isInteger(product.priceCents)).toBe(true);
      expect(product.rating.rate).toBeGreaterThanOrEqual(0);
      expect(product.rating.rate).toBeLessThanOrEqual(5);
    }
  });

  it("finds a product by id, and null for an unknown id", async () => {
    expect((await catalogue.byId(17))?.priceCents).toBe(123400);
    expect(await catalogue.byId(9999)).toBeNull();
  });

  it("refuses to start on a broken catalogue file", () => {
    const dir = fs.mkdtempSync("/tmp/catalogue-");
    fs.mkdirSync(`${dir}/images`);
    fs.writeFileSync(`${dir}/products.json`, JSON.stringify([{ id: 1, title: "No price" }]));
    expect(() => new EmbeddedCatalogue(`${dir}/`)).toThrow();
    fs.rmSync(dir, { recursive: true });
  });
});
