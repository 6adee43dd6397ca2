import { beforeAll, describe, expect, it } from "vitest";
import { EmbeddedCatalogue } from "../catalogue/embedded.ts";
import { RemoteCatalogue } from "../catalogue/remote.ts";
import { testApp } from "../../test/support/app.ts";
import { memoryLogger } from "../../test/support/logger.ts";
import { builtPages } from "../../test/support/pages.ts";

// The /search page rendered by the production build, in-process.
let ssr: Awaited<ReturnType<typeof builtPages>>;
beforeAll(async () => {
  ssr = await builtPages();
});

const appOver = async (catalogue: EmbeddedCatalogue | RemoteCatalogue, log = memoryLogger().log) =>
  (await testApp({ catalogue, log, ssr })).app;

const searchPath = (q: string) => `/search?${new URLSearchParams({ q })}`;

describe("the /search page", () => {
  it("renders the results on the server, best first, marked, and not for indexing", async () => {
    const response = await (await appOver(new EmbeddedCatalogue())).request(searchPath("lapt"));
    expect(response.status).toBe(200);
    expect(response.headers.get("x-robots-tag")).toBe("noindex");
    const html = await response.text();
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain("<title>Results for &quot;lapt&quot; | Storefront</title>");
    expect(html).toMatch(/<h1[^>]*>2 results<!-- --> for &quot;<span class="search__query">lapt<\/span>&quot;<\/h1>/);
    const laptop = html.indexOf("15.6-Inch Gaming <mark>Laptop</mark> with 165 Hz Display");
    const rucksack = html.indexOf('<h2 class="card__title">Waxed Canvas Rucksack with Leather Straps</h2>');
    expect(laptop).toBeGreaterThan(0);
    expect(rucksack).toBeGreaterThan(laptop);
    expect(html).not.toContain("Add to cart");
  });

  it("asks for a word when the query is empty or blank", async () => {
    const app = await appOver(new EmbeddedCatalogue());
    for (const path of ["/search", "/search?q=", "/search?q=%20%20%09"]) {
      const response = await app.request(path);
      expect(response.status, path).toBe(200);
      const html = await response.text();
      expect(html).toContain("<title>Search | Storefront</title>");
      expect(html).toContain("Type what you are looking for in the search box above");
    }
  });

  it.each([
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "</script><script>alert(1)</script>",
    "\u2028\u2029 </title><script>alert(1)</script>",
    "{{constructor.constructor('alert(1)')()}}",
    "%00%ZZ",
    "🎒".repeat(300),
  ])("answers %j with a page that shows it as text", async (q) => {
    const response = await (await appOver(new EmbeddedCatalogue())).request(searchPath(q));
    expect(response.status).toBe(200);
    const html = await response.text();
    // Neither the page nor the data streamed into it for hydration carries the markup unescaped.
    expect(html).not.toMatch(/<script>alert|<img src=x/i);
    expect(html).toContain("for &quot;");
  });

  it("never answers 5xx, to odd addresses or to its data requests", async () => {
    const app = await appOver(new EmbeddedCatalogue());
    for (const path of ["/search?q=%E0%A4%A", "/search?q=a&q=b", "/search?q[]=x", `/search?q=${"x".repeat(5_000)}`, "/search.data?q=%3Cscript%3E"]) {
      const response = await app.request(path);
      expect(response.status, path).toBeLessThan(500);
    }
  });

  it("shows no results, not an error, while a remote catalogue is down", async () => {
    const { log, records } = memoryLogger();
    const app = await appOver(new RemoteCatalogue({ baseUrl: "http://127.0.0.1:9", timeoutMs: 300, cacheSeconds: 0, log }), log);
    const response = await app.request(searchPath("rucksack"));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("No results for &quot;<!-- -->rucksack<!-- -->&quot;.");
    expect(records.some((r) => r.msg === "catalogue request failed")).toBe(true);
    const api = await app.request("/api/search?q=rucksack");
    expect(api.status).toBe(200);
    expect(await api.json()).toEqual({ query: "rucksack", total: 0, results: [] });
  });
});
