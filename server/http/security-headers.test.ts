import http from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "./env.ts";
import { NONCE, newNonce, securityHeaderSet, securityHeaders } from "./security-headers.ts";

function app() {
  const hono = new Hono<AppEnv>();
  hono.use("*", securityHeaders(securityHeaderSet({ csp: { defaultSrc: ["'self'"], scriptSrc: ["'self'", NONCE], frameAncestors: ["'none'"] }, hsts: false })));
  hono.get("/page", (c) => c.html(`<script nonce="${c.get("cspNonce")}"></script>`));
  hono.get("/public", (c) => c.body("x", 200, { "Cross-Origin-Resource-Policy": "cross-origin" }));
  hono.get("/moved", () => Response.redirect("http://localhost/page", 302));
  hono.get("/assets/entry-Ab1.js", (c) => c.body("export{}", 200, { "Content-Type": "text/javascript; charset=utf-8" }));
  // A built script that is not there gets the shop's page.
  hono.get("/assets/gone-Ab1.js", (c) => c.html("<h1>Page not found</h1>", 404));
  return hono;
}

describe("security headers", () => {
  it("give every response its own nonce, the one its page uses", async () => {
    const shop = app();
    const nonces = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const response = await shop.request("/page");
      const policy = response.headers.get("content-security-policy")!;
      expect(policy).toMatch(/^default-src 'self'; script-src 'self' 'nonce-[A-Za-z0-9+/]{22}=='; frame-ancestors 'none'$/);
      const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
      expect(await response.text()).toBe(`<script nonce="${nonce}"></script>`);
      nonces.add(nonce);
    }
    // Past one pool of 256: still all different.
    expect(nonces.size).toBe(300);
  });

  it("are 128 random bits each", () => {
    expect(Buffer.from(newNonce(), "base64")).toHaveLength(16);
  });

  it("set the fixed headers but leave a route's own choice alone", async () => {
    const shop = app();
    const page = await shop.request("/page");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(page.headers.get("cross-origin-resource-policy")).toBe("same-origin");
    expect(page.headers.get("strict-transport-security")).toBeNull();
    expect((await shop.request("/public")).headers.get("cross-origin-resource-policy")).toBe("cross-origin");
  });

  it("reach responses whose headers are read-only", async () => {
    const moved = await app().request("/moved");
    expect(moved.status).toBe(302);
    expect(moved.headers.get("location")).toBe("http://localhost/page");
    expect(moved.headers.get("x-frame-options")).toBe("DENY");
    expect(moved.headers.get("content-security-policy")).toContain("'nonce-");
  });

  it("are the same over node:http, where they are the response's defaults", async () => {
    const server = http.createServer(getRequestListener(app().fetch));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const page = await fetch(`${base}/page`);
      const policy = page.headers.get("content-security-policy")!;
      const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
      expect(await page.text()).toBe(`<script nonce="${nonce}"></script>`);
      expect(page.headers.get("x-frame-options")).toBe("DENY");
      expect(page.headers.get("cross-origin-resource-policy")).toBe("same-origin");
      // Each header once, and the route's own value wins over the default.
      const open = await fetch(`${base}/public`);
      expect(open.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
      expect(open.headers.get("x-content-type-options")).toBe("nosniff");
      const moved = await fetch(`${base}/moved`, { redirect: "manual" });
      expect(moved.status).toBe(302);
      expect(moved.headers.get("x-frame-options")).toBe("DENY");
      expect(moved.headers.get("content-security-policy")).toContain("'nonce-");
      const second = /'nonce-([^']+)'/.exec((await fetch(`${base}/page`)).headers.get("content-security-policy")!)![1];
      expect(second).not.toBe(nonce);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("leave off a built script what governs documents only, over node:http and elsewhere", async () => {
    const server = http.createServer(getRequestListener(app().fetch));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const script of [await app().request("/assets/entry-Ab1.js"), await fetch(`${base}/assets/entry-Ab1.js`)]) {
        expect(script.status).toBe(200);
        expect(script.headers.get("x-content-type-options")).toBe("nosniff");
        expect(script.headers.get("cross-origin-resource-policy")).toBe("same-origin");
        expect(script.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
        for (const name of ["content-security-policy", "x-frame-options", "cross-origin-opener-policy", "origin-agent-cluster", "x-xss-protection"]) expect(script.headers.get(name), name).toBeNull();
      }
      for (const missing of [await app().request("/assets/gone-Ab1.js"), await fetch(`${base}/assets/gone-Ab1.js`)]) {
        expect(missing.status).toBe(404);
        expect(missing.headers.get("content-security-policy")).toContain("'nonce-");
        expect(missing.headers.get("x-frame-options")).toBe("DENY");
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
