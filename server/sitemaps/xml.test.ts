import { describe, expect, it } from "vitest";
import type { Product } from "../catalogue/product.ts";
import { robotsTxt, sitemapFiles } from "./sitemaps.ts";
import { escapeXml, inRuns, MAX_URLS, sitemapIndex, urlset, w3cDate } from "./xml.ts";

const ORIGIN = "https://shop.example";
const TEXT = "[^<>&\"']*(?:&(?:amp|lt|gt|quot|apos);[^<>&\"']*)*";
const ENTRY = (tag: string) => `<${tag}><loc>https://shop\\.example/${TEXT}</loc>(?:<lastmod>\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ</lastmod>)?</${tag}>\\n`;
/** The whole document as the protocol has it: the declaration, the root in its namespace, entries of absolute, escaped addresses. */
const wellFormed = (root: string, tag: string) =>
  new RegExp(`^<\\?xml version="1\\.0" encoding="UTF-8"\\?>\\n<${root} xmlns="http://www\\.sitemaps\\.org/schemas/sitemap/0\\.9">\\n(?:${ENTRY(tag)})*</${root}>\\n$`);

const product = (id: number, category: string): Product => ({
  id,
  title: `Product ${id}`,
  priceCents: 100,
  description: "",
  category,
  image: "/images/products/backpack.svg",
  rating: { rate: 4, count: 1 },
});

describe("the sitemaps' XML", () => {
  it("escapes the five XML characters, and dates to the second in UTC", () => {
    expect(escapeXml(`a&b<c>d"e'f`)).toBe("a&amp;b&lt;c&gt;d&quot;e&apos;f");
    expect(w3cDate(Date.UTC(2024, 4, 1, 12, 30, 5, 123))).toBe("2024-05-01T12:30:05Z");
  });

  it("makes a urlset and an index of absolute addresses with their lastmod", () => {
    const set = urlset([{ loc: `${ORIGIN}/results/men's%20clothing`, lastmod: Date.UTC(2024, 0, 2) }, { loc: `${ORIGIN}/products/1` }]);
    expect(set).toMatch(wellFormed("urlset", "url"));
    expect(set).toContain("<url><loc>https://shop.example/results/men&apos;s%20clothing</loc><lastmod>2024-01-02T00:00:00Z</lastmod></url>\n<url><loc>https://shop.example/products/1</loc></url>");
    const index = sitemapIndex([{ loc: `${ORIGIN}/sitemaps/products-1.xml`, lastmod: 0 }]);
    expect(index).toMatch(wellFormed("sitemapindex", "sitemap"));
    expect(index).toContain("<sitemap><loc>https://shop.example/sitemaps/products-1.xml</loc><lastmod>1970-01-01T00:00:00Z</lastmod></sitemap>");
  });

  it("puts at most 50,000 addresses in one sitemap", () => {
    const runs = inRuns(Array.from({ length: 120_001 }, (_, i) => i));
    expect(runs.map((run) => run.length)).toEqual([50_000, 50_000, 20_001]);
    expect(runs.flat()).toEqual(Array.from({ length: 120_001 }, (_, i) => i));
    expect(inRuns([])).toEqual([]);
    expect(() => urlset(Array.from({ length: MAX_URLS + 1 }, (_, i) => ({ loc: `${ORIGIN}/products/${i}` })))).toThrow(/at most 50000/);
  });
});

describe("the shop's sitemaps", () => {
  it("splits 120,001 products into sitemaps of 50,000, each product's page once, with its lastmod", () => {
    const products = Array.from({ length: 120_001 }, (_, i) => product(i + 1, i % 2 ? "odd" : "even"));
    const lastModified = new Map(products.map((p) => [p.id, Date.UTC(2024, 0, 1) + p.id * 1000]));
    const files = sitemapFiles(products, lastModified, ORIGIN);
    expect(files.map((file) => [file.name, file.urls.length])).toEqual([
      ["categories-1.xml", 3],
      ["products-1.xml", 50_000],
      ["products-2.xml", 50_000],
      ["products-3.xml", 20_001],
    ]);
    expect(files[3]!.urls.at(-1)).toEqual({ loc: `${ORIGIN}/products/120001`, lastmod: Date.UTC(2024, 0, 1) + 120_001_000 });
    // A category's lastmod is its newest product's; the home page's the newest of all.
    expect(files[0]!.urls).toEqual([
      { loc: `${ORIGIN}/`, lastmod: Date.UTC(2024, 0, 1) + 120_001_000 },
      { loc: `${ORIGIN}/results/even`, lastmod: Date.UTC(2024, 0, 1) + 120_001_000 },
      { loc: `${ORIGIN}/results/odd`, lastmod: Date.UTC(2024, 0, 1) + 120_000_000 },
    ]);
    expect(urlset(files[3]!.urls)).toMatch(wellFormed("urlset", "url"));
  });

  it("lists a catalogue without lastmods (a remote host's) without them, categories URL-encoded", () => {
    const files = sitemapFiles([product(1, "men's & boys' clothing"), product(2, "a/b")], undefined, ORIGIN, 2);
    expect(files).toEqual([
      { name: "categories-1.xml", urls: [{ loc: `${ORIGIN}/`, lastmod: undefined }, { loc: `${ORIGIN}/results/a%2Fb`, lastmod: undefined }] },
      { name: "categories-2.xml", urls: [{ loc: `${ORIGIN}/results/men's%20%26%20boys'%20clothing`, lastmod: undefined }] },
      { name: "products-1.xml", urls: [{ loc: `${ORIGIN}/products/1`, lastmod: undefined }, { loc: `${ORIGIN}/products/2`, lastmod: undefined }] },
    ]);
    const xml = urlset(files[1]!.urls);
    expect(xml).toMatch(wellFormed("urlset", "url"));
    expect(xml).toContain("<loc>https://shop.example/results/men&apos;s%20%26%20boys&apos;%20clothing</loc></url>");
  });
});

describe("robots.txt", () => {
  it("lets crawlers read the catalogue, not the API, the back office or a shopper's pages, and names the sitemap", () => {
    expect(robotsTxt("https://shop.example/")).toBe(
      ["User-agent: *", "Allow: /", "Disallow: /api/", "Disallow: /admin", "Disallow: /payment", "Disallow: /orders", "Disallow: /auth", "", "Sitemap: https://shop.example/sitemap.xml", ""].join("\n"),
    );
  });
});
