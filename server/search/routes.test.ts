import { beforeAll, describe, expect, it } from "vitest";
import { testApp } from "../../test/support/app.ts";
import type { SuggestionsBody } from "./routes.ts";

let app: Awaited<ReturnType<typeof testApp>>["app"];

beforeAll(async () => {
  ({ app } = await testApp({ env: { PUBLIC_URL: "https://shop.example" } }));
});

async function getJson(path: string) {
  const response = await app.request(path);
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
}

describe("GET /api/search", () => {
  it("answers the best matching product titles, best first", async () => {
    const { status, headers, body } = await getJson("/api/search?q=lapt");
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/^application\/json/);
    expect(body).toEqual({
      query: "lapt",
      total: 2,
      results: [
        { id: 17, title: "15.6-Inch Gaming Laptop with 165 Hz Display" },
        { id: 1, title: "Waxed Canvas Rucksack with Leather Straps" },
      ],
    } satisfies SuggestionsBody);
  });

  it("gives at most 6 results unless asked, and at most `limit`", async () => {
    const all = (await getJson("/api/search?q=a&limit=20")).body as SuggestionsBody;
    expect(all.total).toBeGreaterThan(6);
    expect(((await getJson("/api/search?q=a")).body as SuggestionsBody).results).toEqual(all.results.slice(0, 6));
    expect(((await getJson("/api/search?q=a&limit=1")).body as SuggestionsBody).results).toEqual(all.results.slice(0, 1));
    expect(((await getJson("/api/search?q=a&limit=20")).body as SuggestionsBody).results).toHaveLength(Math.min(20, all.total));
  });

  it("answers an empty list to a missing, empty or blank query", async () => {
    for (const path of ["/api/search", "/api/search?q=", "/api/search?q=%20%09"]) {
      expect(await getJson(path), path).toMatchObject({ status: 200, body: { query: "", total: 0, results: [] } });
    }
  });

  it("cuts a query over 200 characters instead of refusing it", async () => {
    const { status, body } = await getJson(`/api/search?q=${"rucksack ".repeat(100)}`);
    expect(status).toBe(200);
    expect((body as SuggestionsBody).query).toHaveLength(200);
    expect((body as SuggestionsBody).results.map((r) => r.id)).toEqual([1]);
  });

  it("answers odd text as text, never an error", async () => {
    for (const q of ["<script>alert(1)</script>", "%", "\u0000", "🎒", "'; DROP TABLE products; --", "[object Object]", "\\"]) {
      const response = await app.request(`/api/search?${new URLSearchParams({ q })}`);
      expect(response.status, q).toBe(200);
      expect(await response.json()).toMatchObject({ results: expect.any(Array) });
    }
    // Not even a malformed percent-encoding.
    expect((await app.request("/api/search?q=%E0%A4%A")).status).toBeLessThan(500);
  });

  it.each(["limit=0", "limit=21", "limit=-1", "limit=2.5", "limit=abc", "limit=", "limit=1e3"])(
    "answers 400 with a JSON message to %s",
    async (query) => {
      const { status, body } = await getJson(`/api/search?q=lamp&${query}`);
      expect(status).toBe(400);
      expect(body).toEqual({ error: "limit must be a whole number from 1 to 20" });
    },
  );

  it("is cacheable: a Cache-Control, and an ETag that revalidates to 304", async () => {
    const first = await app.request("/api/search?q=head");
    expect(first.headers.get("cache-control")).toBe("public, max-age=60");
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    const again = await app.request("/api/search?q=head", { headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    // A 400 is not something to keep.
    expect((await app.request("/api/search?limit=0")).headers.get("cache-control")).toBeNull();
  });

  it("answers other methods with 405", async () => {
    const response = await app.request("/api/search?q=lamp", { method: "POST" });
    expect(response.status).toBe(405);
    expect(await response.json()).toEqual({ error: "No API endpoint POST /api/search." });
  });
});
