import { gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { TEST_ORIGIN, signUp, testApp } from "../../test/support/app.ts";
import { builtPages } from "../../test/support/pages.ts";
import { ChangingCatalogue } from "../../test/support/changing-catalogue.ts";

let app: Awaited<ReturnType<typeof testApp>>["app"];
const catalogue = new ChangingCatalogue();
beforeAll(async () => {
  ({ app } = await testApp({ catalogue, ssr: await builtPages() }));
});

async function page(path: string, init: RequestInit = {}) {
  const response = await app.request(`${TEST_ORIGIN}${path}`, init);
  const html = await response.text();
  const csp = response.headers.get("content-security-policy") ?? "";
  const headerNonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  const pageNonces = [...new Set([...html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]))];
  return { status: response.status, cache: response.headers.get("x-page-cache"), html, headerNonce, pageNonces };
}

describe("the anonymous page cache", () => {
  it("renders an anonymous GET once and serves it again, each time with a fresh nonce matching its own CSP", async () => {
    const first = await page("/products/2");
    expect(first.cache).toBe("miss");
    const second = await page("/products/2");
    const third = await page("/products/2");
    expect([second.cache, third.cache]).toEqual(["hit", "hit"]);
    const nonces = [first, second, third].map((p) => p.headerNonce);
    expect(new Set(nonces).size).toBe(3);
    for (const p of [first, second, third]) expect(p.pageNonces).toEqual([p.headerNonce]);
    expect(second.html.replaceAll(second.headerNonce!, "N")).toBe(first.html.replaceAll(first.headerNonce!, "N"));
  });

  it("never serves or keeps a page for a request with a session cookie", async () => {
    const cookie = await signUp(app, "cached@example.com");
    await page("/products/3");
    const signedIn = await page("/products/3", { headers: { cookie } });
    expect(signedIn.cache).toBeNull();
    expect(signedIn.html).toContain("Hello <!-- -->cached");
    expect((await page("/products/3")).html).toContain("Hello, Sign In");
  });

  it("never keeps a page whose address carries a token, and tells no cache to store it", async () => {
    const link = "/auth/reset?token=a-reset-token-of-someone";
    for (let i = 0; i < 2; i++) {
      const response = await app.request(`${TEST_ORIGIN}${link}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("x-page-cache")).toBeNull();
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
    // The same page without a token is kept as before.
    await page("/auth/reset");
    expect((await page("/auth/reset")).cache).toBe("hit");
  });

  it("never serves a write from it, and keeps no error page", async () => {
    await page("/auth");
    const post = await page("/auth", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: TEST_ORIGIN },
      body: "intent=signin&email=nobody%40example.com&password=wrong-password",
    });
    expect(post.cache).toBeNull();
    expect(post.html).toContain("Invalid email or password");
    const missing = await page("/no-such-page");
    expect(missing.status).toBe(404);
    expect((await page("/no-such-page")).cache).toBeNull();
    const redirected = await app.request(`${TEST_ORIGIN}/orders`);
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get("x-page-cache")).toBeNull();
  });

  it("is dropped when the catalogue's data changes", async () => {
    await page("/results/jewelery");
    expect((await page("/results/jewelery")).cache).toBe("hit");
    await catalogue.change();
    expect((await page("/results/jewelery")).cache).toBe("miss");
  });
});

describe("a cached page for a client that takes gzip", () => {
  it("comes gzipped, with its own nonce, and unpacks to the same page", async () => {
    await page("/products/4");
    const plain = await page("/products/4");
    const response = await app.request(`${TEST_ORIGIN}/products/4`, { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(response.headers.get("x-page-cache")).toBe("hit");
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("vary")).toContain("Accept-Encoding");
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy")!)![1]!;
    expect(nonce).not.toBe(plain.headerNonce);
    const html = gunzipSync(Buffer.from(await response.arrayBuffer())).toString();
    expect(html.replaceAll(nonce, "N")).toBe(plain.html.replaceAll(plain.headerNonce!, "N"));
  });

  it("comes plain to a client that refuses gzip", async () => {
    await page("/products/5");
    const response = await app.request(`${TEST_ORIGIN}/products/5`, { headers: { "accept-encoding": "gzip;q=0, identity" } });
    expect(response.headers.get("x-page-cache")).toBe("hit");
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.text()).toContain("<!DOCTYPE html>");
  });
});
