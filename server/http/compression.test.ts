import { gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { withWholeBody } from "../../lib/whole-body.ts";
import { acceptsGzip, compression, preferredEncoding } from "./compression.ts";

const big = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, title: `Product number ${i}` })) });
const page = `<!DOCTYPE html><html><body>${"<p>Storefront</p>".repeat(200)}</body></html>`;

function app() {
  const hono = new Hono();
  hono.use("*", compression());
  hono.get("/json", (c) => c.body(big, 200, { "Content-Type": "application/json", ETag: '"v1"' }));
  hono.get("/small", (c) => c.body('{"ok":true}', 200, { "Content-Type": "application/json" }));
  // A body of unknown length (a stream), as React Router's data answers are.
  hono.get("/stream", () => new Response(new Blob([big]).stream(), { headers: { "Content-Type": "text/x-script" } }));
  hono.get("/page", () => new Response(new Blob([page]).stream(), { headers: { "Content-Type": "text/html; charset=utf-8" } }));
  // A rendered page marked with its whole body (app/entry.server.tsx): its stream is never read.
  hono.get("/whole", () => {
    const untouched = new ReadableStream({ pull: () => Promise.reject(new Error("the body stream was read")) });
    const response = new Response(untouched, { headers: { "Content-Type": "text/html; charset=utf-8", "Content-Length": String(page.length), "X-Page": "1" } });
    return withWholeBody(response, new TextEncoder().encode(page));
  });
  // React Router's data answer (a single fetch): a turbo-stream body of unknown length.
  hono.get("/data/:size", (c) => {
    const text = c.req.param("size") === "big" ? big : '{"ok":true}';
    return new Response(new Blob([text]).stream(), { headers: { "Content-Type": "text/x-script", "X-Remix-Response": "yes" } });
  });
  hono.get("/encoded", (c) => c.body(big, 200, { "Content-Type": "application/json", "Content-Encoding": "br" }));
  hono.get("/keep", (c) => c.body(big, 200, { "Content-Type": "application/json", "Cache-Control": "no-transform" }));
  hono.get("/image", (c) => c.body(new Uint8Array(4096), 200, { "Content-Type": "image/png" }));
  return hono;
}

const gzip = { headers: { "accept-encoding": "gzip, deflate, br" } };

describe("compression", () => {
  it("gzips a whole answer in one go and says its length", async () => {
    const response = await app().request("/json", gzip);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(response.headers.get("etag")).toBe('W/"v1"');
    const body = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get("content-length"))).toBe(body.byteLength);
    expect(body.byteLength).toBeLessThan(big.length / 3);
    expect(gunzipSync(body).toString()).toBe(big);
  });

  it("takes a page's whole body as marked, without reading its stream, and keeps its headers", async () => {
    const response = await app().request("/whole", gzip);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("x-page")).toBe("1");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    const body = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get("content-length"))).toBe(body.byteLength);
    expect(gunzipSync(body).toString()).toBe(page);
  });

  it("reads a streamed answer whole, then gzips it", async () => {
    const response = await app().request("/stream", gzip);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    const body = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get("content-length"))).toBe(body.byteLength);
    expect(gunzipSync(body).toString()).toBe(big);
  });

  it("reads a data answer's body stream whole: the same bytes and headers, gzipped or not", async () => {
    const response = await app().request("/data/big", gzip);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("x-remix-response")).toBe("yes");
    expect(response.headers.get("content-type")).toBe("text/x-script");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    const body = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get("content-length"))).toBe(body.byteLength);
    expect(gunzipSync(body).toString()).toBe(big);
    // Too small to be worth it: the same bytes, plain, with the same headers.
    const small = await app().request("/data/small", gzip);
    expect(small.headers.get("content-encoding")).toBeNull();
    expect(small.headers.get("x-remix-response")).toBe("yes");
    expect(await small.text()).toBe('{"ok":true}');
  });

  it("keeps a page streaming, gzipped as it goes", async () => {
    const response = await app().request("/page", gzip);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("content-length")).toBeNull();
    expect(gunzipSync(Buffer.from(await response.arrayBuffer())).toString()).toBe(page);
  });

  it("leaves alone what is small, already encoded, marked no-transform, not text, or not wanted gzipped", async () => {
    const shop = app();
    for (const path of ["/small", "/encoded", "/keep", "/image"]) {
      const response = await shop.request(path, gzip);
      expect(response.headers.get("content-encoding"), path).toBe(path === "/encoded" ? "br" : null);
    }
    for (const accept of ["identity", "gzip;q=0, br", ""]) {
      const response = await shop.request("/json", { headers: { "accept-encoding": accept } });
      expect(response.headers.get("content-encoding"), accept).toBeNull();
      // A shared cache must still keep the two forms apart.
      expect(response.headers.get("vary")).toBe("Accept-Encoding");
      expect(await response.text()).toBe(big);
    }
    const head = await shop.request("/json", { method: "HEAD", ...gzip });
    expect(head.headers.get("content-encoding")).toBeNull();
  });

  it("reads Accept-Encoding as HTTP means it", () => {
    expect(acceptsGzip("gzip")).toBe(true);
    expect(acceptsGzip("br, GZIP;q=0.5")).toBe(true);
    expect(acceptsGzip("*")).toBe(true);
    expect(acceptsGzip("gzip;q=0")).toBe(false);
    expect(acceptsGzip("gzip; q=0.0, br")).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
    // Our order of preference decides among what the client takes; q=0 refuses, * stands for the rest.
    expect(preferredEncoding("gzip, deflate, br", ["br", "gzip"])).toBe("br");
    expect(preferredEncoding("br;q=0, gzip", ["br", "gzip"])).toBe("gzip");
    expect(preferredEncoding("*, br;q=0", ["br", "gzip"])).toBe("gzip");
    expect(preferredEncoding("identity", ["br", "gzip"])).toBeNull();
    expect(preferredEncoding(" BR ", ["br", "gzip"])).toBe("br");
  });
});
