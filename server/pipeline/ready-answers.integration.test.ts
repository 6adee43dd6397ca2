import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { jsonPost, signUp, testApp } from "../../test/support/app.ts";
import { memoryLogger } from "../../test/support/logger.ts";
import { builtPageRoutes } from "../../test/support/page-routes.ts";
import { builtPages } from "../../test/support/pages.ts";
import { parseMetrics, sampleValue } from "../../test/support/prometheus-text.ts";
import type { Services } from "../services.ts";

// The pipeline's answers in front of Hono through real node:http listeners: `shop` is what main.ts
// serves (ready answers in front of the Hono app), `hono` the same app and caches without them.
// What is answered in front must be exactly what Hono answers (but for the date, the request id and
// the nonce).

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let shop: string;
let hono: string;
let services: Services;
let app: Awaited<ReturnType<typeof testApp>>["app"];
let records: Array<Record<string, unknown>>;
/** Requests passed on to the Hono app. */
const honoCalls = { count: 0 };
const servers: http.Server[] = [];

async function serve(listener: http.RequestListener): Promise<string> {
  const server = http.createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const memory = memoryLogger();
  records = memory.records;
  const test = await testApp({ log: memory.log, ssr: await builtPages(), pageRoutes: await builtPageRoutes() });
  services = test.services;
  app = test.app;
  const fetch = test.app.fetch;
  hono = await serve(getRequestListener(fetch));
  // Every request passed on reaches the app's fetch: counted.
  test.app.fetch = (...args: Parameters<typeof fetch>) => {
    honoCalls.count++;
    return fetch(...args);
  };
  shop = await serve(test.listener());
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

beforeEach(() => (honoCalls.count = 0));

function get(base: string, path: string, headers: Record<string, string> = {}, method = "GET"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .request(`${base}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject)
      .end();
  });
}

const nonceOf = (answer: Answer) => /'nonce-([^']+)'/.exec(String(answer.headers["content-security-policy"]))?.[1] ?? "";

/** The headers that must be the same on both doors: all but the date and the request id, with the nonce named N. */
function comparable(answer: Answer): Record<string, unknown> {
  const nonce = nonceOf(answer);
  const rest = Object.entries(answer.headers).filter(([name]) => name !== "date" && name !== "x-request-id");
  return Object.fromEntries(rest.map(([name, value]) => [name, nonce ? String(value).replaceAll(nonce, "N") : value]));
}

function decoded(answer: Answer): string {
  const encoding = answer.headers["content-encoding"];
  const text = (encoding === "br" ? brotliDecompressSync(answer.body) : encoding === "gzip" ? gunzipSync(answer.body) : answer.body).toString();
  const nonce = nonceOf(answer);
  return nonce ? text.replaceAll(nonce, "N") : text;
}

const requestLine = (id: unknown) => records.find((record) => record.msg === "request" && record.requestId === id);

async function requestsCounted(route: string, status = "200", method = "GET"): Promise<number> {
  return sampleValue(parseMetrics(await services.metrics.registry.metrics()), "storefront_http_requests_total", { method, route, status });
}

const ENCODINGS = ["gzip, deflate, br", "gzip", "identity"];

describe("the catalogue API's prepared answers", () => {
  // A page of a list (limit 5, page 2) carries Link headers to the pages around it.
  it.each([
    "/api/catalogue/products",
    "/api/catalogue/products/3",
    "/api/catalogue/products/categories",
    "/api/catalogue/products?sort=desc&limit=2",
    "/api/catalogue/products?limit=5&page=2",
    "/api/catalogue/products/category/electronics?limit=2&page=2",
  ])(
    "%s: the same status, headers and bytes as Hono's, in each encoding, without Hono",
    async (path) => {
      const first = await get(shop, path, { "accept-encoding": ENCODINGS[0]! });
      expect(honoCalls.count).toBe(1); // nothing prepared yet: the route makes it
      honoCalls.count = 0;
      for (const accept of ENCODINGS) {
        const fast = await get(shop, path, { "accept-encoding": accept });
        const slow = await get(hono, path, { "accept-encoding": accept });
        expect(fast.status).toBe(200);
        expect(comparable(fast)).toEqual(comparable(slow));
        expect(fast.body.equals(slow.body)).toBe(true);
        expect(JSON.parse(decoded(fast))).toEqual(JSON.parse(decoded(slow)));
        expect(fast.headers["cross-origin-resource-policy"]).toBe("cross-origin");
        if (path.includes("page=")) expect(fast.headers.link).toMatch(/rel="next", <http:\/\/localhost:3000\/api\/catalogue\/[^>]+page=1>; rel="prev"$/);
        if (accept === ENCODINGS[0]) expect(comparable(fast)).toEqual(comparable(first));
      }
      expect(honoCalls.count).toBe(0);
    },
  );

  it("answers HEAD and a matching If-None-Match as Hono does", async () => {
    const path = "/api/catalogue/products/5";
    const first = await get(shop, path, { "accept-encoding": "gzip" });
    honoCalls.count = 0;
    const [fastHead, slowHead] = [await get(shop, path, { "accept-encoding": "gzip" }, "HEAD"), await get(hono, path, { "accept-encoding": "gzip" }, "HEAD")];
    expect(fastHead.status).toBe(200);
    expect(fastHead.body.length).toBe(0);
    expect(comparable(fastHead)).toEqual(comparable(slowHead));
    expect(fastHead.headers["content-length"]).toBe(first.headers["content-length"]);

    const etag = String(first.headers.etag);
    const [fast304, slow304] = [await get(shop, path, { "if-none-match": etag }), await get(hono, path, { "if-none-match": etag })];
    expect(fast304.status).toBe(304);
    expect(fast304.body.length).toBe(0);
    // The one difference: Hono's node adapter gives every answer without a Content-Type
    // "text/plain", a 304 too, where it would relabel a cache's stored JSON (RFC 9111 4.3.4); a 304
    // carries no representation metadata (RFC 9110 15.4.5).
    expect(fast304.headers["content-type"]).toBeUndefined();
    expect(comparable(fast304)).toEqual({ ...comparable(slow304), "content-type": undefined });
    expect(fast304.headers.etag).toBe(etag);
    expect(honoCalls.count).toBe(0);
  });

  it("writes the request's log line and metrics, with the id it sends back", async () => {
    const path = "/api/catalogue/products/7";
    await get(shop, path);
    const before = await requestsCounted("/api/catalogue/products/:id");
    const fast = await get(shop, path, { "accept-encoding": "gzip" });
    const slow = await get(hono, path, { "accept-encoding": "gzip" });
    expect(await requestsCounted("/api/catalogue/products/:id")).toBe(before + 2);
    const [fastLine, slowLine] = [requestLine(fast.headers["x-request-id"]), requestLine(slow.headers["x-request-id"])];
    expect(fast.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(fastLine).toMatchObject({ method: "GET", route: "/api/catalogue/products/:id", status: 200 });
    expect(Object.keys(fastLine!).sort()).toEqual(Object.keys(slowLine!).sort());
    expect({ ...fastLine, requestId: 0, ms: 0, time: 0 }).toEqual({ ...slowLine, requestId: 0, ms: 0, time: 0 });
  });

  it("leaves to Hono what it does not hold: other methods, a body, a bad query", async () => {
    await get(shop, "/api/catalogue/products");
    honoCalls.count = 0;
    expect((await get(shop, "/api/catalogue/products", {}, "OPTIONS")).status).toBe(204);
    expect((await get(shop, "/api/catalogue/products", { "content-length": "0" })).status).toBe(200);
    expect((await get(shop, "/api/catalogue/products?limit=0")).status).toBe(400);
    expect(honoCalls.count).toBe(3);
  });
});

describe("the page cache's hits", () => {
  it.each(ENCODINGS)("Accept-Encoding %s: the same headers and page as Hono's, with a fresh nonce that matches the CSP", async (accept) => {
    const path = "/products/2";
    await get(shop, path, { "accept-encoding": accept });
    honoCalls.count = 0;
    const [one, two] = [await get(shop, path, { "accept-encoding": accept }), await get(shop, path, { "accept-encoding": accept })];
    const slow = await get(hono, path, { "accept-encoding": accept });
    expect(honoCalls.count).toBe(0);
    for (const answer of [one, two]) {
      expect(answer.status).toBe(200);
      expect(answer.headers["x-page-cache"]).toBe("hit");
      expect(comparable(answer)).toEqual(comparable(slow));
      expect(decoded(answer)).toBe(decoded(slow));
      const html = decoded({ ...answer, headers: { ...answer.headers, "content-security-policy": "" } });
      expect([...new Set([...html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]))]).toEqual([nonceOf(answer)]);
    }
    expect(nonceOf(one)).not.toBe(nonceOf(two));
    expect(one.headers["content-encoding"]).toBe(accept === "identity" ? undefined : "gzip");
  });

  it("writes the log line and metrics under the page's route pattern", async () => {
    await get(shop, "/results/electronics");
    const before = await requestsCounted("/results/:categoryName");
    const fast = await get(shop, "/results/electronics");
    expect(fast.headers["x-page-cache"]).toBe("hit");
    expect(await requestsCounted("/results/:categoryName")).toBe(before + 1);
    expect(requestLine(fast.headers["x-request-id"])).toMatchObject({ method: "GET", route: "/results/:categoryName", status: 200 });
  });

  it("never serves a session's request from the anonymous page: the signed-in page has the user's name", async () => {
    await get(shop, "/products/3");
    const cookie = await signUp(app, "shared@example.com");
    honoCalls.count = 0;
    const signedIn = await get(shop, "/products/3", { cookie });
    expect(honoCalls.count).toBe(1);
    expect(signedIn.headers["x-page-cache"]).toBeUndefined();
    expect(decoded(signedIn)).toContain("shared");
    // Other cookies are no session: still the anonymous page.
    expect((await get(shop, "/products/3", { cookie: "theme=dark" })).headers["x-page-cache"]).toBe("hit");
  });

  it("leaves HEAD and React Router's data requests to Hono", async () => {
    await get(shop, "/");
    honoCalls.count = 0;
    expect((await get(shop, "/", {}, "HEAD")).headers["x-page-cache"]).toBeUndefined();
    expect((await get(shop, "/_root.data")).headers["x-page-cache"]).toBeUndefined();
    expect(honoCalls.count).toBe(2);
  });
});

describe("signed-in pages from kept personal shells", () => {
  /**
   * Signs up and returns the cookies a browser then sends: the session's and its signed cache's.
   * One page request goes through Hono, which verifies them and keeps the page's shell.
   */
  async function signedIn(email: string, path: string): Promise<string> {
    const response = await app.request("/api/auth/sign-up/email", jsonPost({ email, password: "correct horse", name: email }));
    const cookie = response.headers
      .getSetCookie()
      .map((set) => set.split(";")[0])
      .join("; ");
    expect(cookie).toMatch(/session_token=.*session_data=|session_data=.*session_token=/);
    honoCalls.count = 0;
    expect((await get(shop, path, { cookie, "accept-encoding": "gzip" })).headers["x-page-shell"]).toMatch(/^(hit|miss)$/);
    expect(honoCalls.count).toBe(1);
    return cookie;
  }
  const greets = (answer: Answer, name: string) => new RegExp(`Hello (<!-- -->)?${name}<`).test(decoded(answer));

  it.each(ENCODINGS)("Accept-Encoding %s: the same headers and page as Hono's, the user's own, without Hono", async (accept) => {
    const path = "/products/4";
    const cookie = await signedIn(`door-${accept.length}@example.com`, path);
    honoCalls.count = 0;
    const [one, two] = [await get(shop, path, { cookie, "accept-encoding": accept }), await get(shop, path, { cookie, "accept-encoding": accept })];
    expect(honoCalls.count).toBe(0);
    const slow = await get(hono, path, { cookie, "accept-encoding": accept });
    for (const answer of [one, two]) {
      expect(answer.status).toBe(200);
      expect(answer.headers["x-page-shell"]).toBe("hit");
      expect(answer.headers["cache-control"]).toBe("private, no-store");
      expect(answer.headers["set-cookie"]).toBeUndefined();
      expect(comparable(answer)).toEqual(comparable(slow));
      expect(decoded(answer)).toBe(decoded(slow));
      expect(greets(answer, `door-${accept.length}`)).toBe(true);
      const html = decoded({ ...answer, headers: { ...answer.headers, "content-security-policy": "" } });
      expect([...new Set([...html.matchAll(/nonce="([^"]+)"/g)].map((m) => m[1]))]).toEqual([nonceOf(answer)]);
    }
    expect(nonceOf(one)).not.toBe(nonceOf(two));
    expect(one.headers["content-encoding"]).toBe(accept === "identity" ? undefined : "gzip");
  });

  it("gives two shoppers, asking at once, each their own page", async () => {
    const path = "/results/jewelery";
    const [grace, alan] = [await signedIn("grace@example.com", path), await signedIn("alan@example.com", path)];
    honoCalls.count = 0;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => get(shop, path, { cookie: i % 2 ? grace : alan, "accept-encoding": "gzip" })));
    expect(honoCalls.count).toBe(0);
    answers.forEach((answer, i) => {
      const [own, other] = i % 2 ? ["grace", "alan"] : ["alan", "grace"];
      expect(greets(answer, own)).toBe(true);
      expect(decoded(answer)).not.toContain(other);
    });
  });

  it("writes the log line with the user and the metrics under the page's route pattern", async () => {
    const path = "/products/6";
    const cookie = await signedIn("logged@example.com", path);
    const before = await requestsCounted("/products/:productId");
    const fast = await get(shop, path, { cookie });
    expect(fast.headers["x-page-shell"]).toBe("hit");
    expect(await requestsCounted("/products/:productId")).toBe(before + 1);
    const slow = await get(hono, path, { cookie });
    const [fastLine, slowLine] = [requestLine(fast.headers["x-request-id"]), requestLine(slow.headers["x-request-id"])];
    expect(fastLine).toMatchObject({ method: "GET", route: "/products/:productId", status: 200, userId: expect.any(String) });
    expect({ ...fastLine, requestId: 0, ms: 0, time: 0 }).toEqual({ ...slowLine, requestId: 0, ms: 0, time: 0 });
  });

  it("refuses a session that has ended at once: a signed-out cookie goes to Hono and gets no one's page", async () => {
    const path = "/products/8";
    const cookie = await signedIn("leaving@example.com", path);
    expect(greets(await get(shop, path, { cookie }), "leaving")).toBe(true);
    const out = await app.request("/api/auth/sign-out", { method: "POST", headers: { cookie, origin: "http://localhost:3000" } });
    expect(out.status).toBe(200);
    honoCalls.count = 0;
    const after = await get(shop, path, { cookie });
    expect(honoCalls.count).toBe(1);
    expect(after.headers["x-page-shell"]).toBeUndefined();
    expect(decoded(after)).not.toContain("leaving");
  });

  it("leaves to Hono what the shells do not hold: HEAD, data requests, files, pages not from a shell, unknown cookies", async () => {
    const cookie = await signedIn("elsewhere@example.com", "/products/9");
    honoCalls.count = 0;
    expect((await get(shop, "/products/9", { cookie }, "HEAD")).headers["x-page-shell"]).toBeUndefined();
    expect((await get(shop, "/products/9.data", { cookie })).headers["x-page-shell"]).toBeUndefined();
    expect((await get(shop, "/products/9.png", { cookie })).headers["x-page-shell"]).toBeUndefined();
    expect((await get(shop, "/orders", { cookie })).headers["x-page-shell"]).toBeUndefined();
    // The same session's cookies in another order: not the header this process verified.
    const reordered = cookie.split("; ").reverse().join("; ");
    expect((await get(shop, "/products/9", { cookie: reordered })).headers["x-page-shell"]).toBe("hit");
    expect(honoCalls.count).toBe(5);
  });
});
