import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { jsonPost, signUp, TEST_ORIGIN, testAppOnFreshDatabase } from "../../test/support/app.ts";
import { signUpAdmin } from "../../test/support/admin.ts";
import { cleanupAfterEach, testEngines } from "../../test/support/database.ts";
import { builtPages } from "../../test/support/pages.ts";
import type { BuildRoutes } from "../routing/build-routes.ts";
import { backOfficeRoutes } from "./gate.ts";

// The back office answers nobody but an admin, whatever the spelling of its address: every route
// of its API and every page under its layout, listed from the routers themselves (a new route is
// covered without editing this test), asked anonymously and as a customer, answers exactly as an
// unknown address does.

/** Spellings of one address that the routers read as the same route. */
function spellings(address: string): string[] {
  const respelt = (admin: string) => address.replace("admin", admin);
  return [address, respelt("%61dmin"), respelt("adm%69n"), respelt("%61%64%6d%69%6e"), `${address}/`, respelt("%61dmin") + "/"];
}

/** A route pattern with its parameters filled in. */
const filled = (pattern: string) => pattern.replace(/:productId\??|:id(\{[^}]*\})?|:orderId/g, (name) => (name.startsWith(":productId") || name.startsWith(":id{") ? "1" : "pi_1"));

async function build(): Promise<ServerBuild> {
  const file = path.resolve("build/server/index.js");
  if (!fs.existsSync(file)) throw new Error("The page tests render the production build: run `npm run build` first (npm test does).");
  return (await import(pathToFileURL(file).href)) as ServerBuild;
}

/** Every page address of the back office, from the build's route table. */
function backOfficePages(routes: BuildRoutes): string[] {
  const fullPath = (id: string | undefined): string => {
    const route = id ? routes[id] : undefined;
    if (!route) return "";
    const base = fullPath(route.parentId);
    return route.path ? `${base}/${route.path}` : base;
  };
  return [...backOfficeRoutes(routes).ids].map((id) => filled(fullPath(id)) || "/");
}

/** The page without what differs per response (the CSP nonce). */
const stripped = (html: string) => html.replace(/nonce="[^"]*"/g, 'nonce=""');

describe("the back office's route groups", () => {
  it("hold every back-office page: a route file under routes/admin/ or an address under /admin outside the guarded layout fails here", async () => {
    const { routes } = await build();
    const guarded = backOfficeRoutes(routes).ids;
    expect(guarded.size).toBeGreaterThan(5);
    const outside = Object.values(routes).filter((route) => route && !guarded.has(route.id) && (route.id.startsWith("routes/admin/") || /^\/?admin(\/|$)/i.test(route.path ?? "")));
    expect(outside.map((route) => route!.id)).toEqual([]);
  });
});

describe.each(testEngines())("the back office's guard on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  const setup = async () => {
    const shop = await testAppOnFreshDatabase(engine, cleanup, { catalogue: "database", ssr: await builtPages() });
    const customer = await signUp(shop.app, "ada@example.com");
    const admin = await signUpAdmin(shop.app, shop.services);
    return { ...shop, customer, admin };
  };

  it("answers every API route of the back office, however spelt, with the 404 of an unknown address to anyone but an admin", async () => {
    const { app, customer, admin } = await setup();
    const api = app.routes.filter((route) => route.path.startsWith("/api/admin/") && !route.path.endsWith("*"));
    expect(new Set(api.map((route) => route.path)).size).toBeGreaterThan(8);
    for (const route of api) {
      const address = filled(route.path);
      for (const spelt of spellings(address)) {
        for (const cookie of [undefined, customer]) {
          const write = route.method !== "GET";
          const init: RequestInit & { headers: Record<string, string> } = write ? { ...jsonPost({ version: 1, reason: "x", restock: false }), method: route.method } : { headers: {} };
          const response = await app.request(spelt, { ...init, headers: { ...init.headers, ...(cookie && { cookie }) } });
          const what = `${route.method} ${spelt} ${cookie ? "as a customer" : "anonymously"}`;
          expect(response.status, what).toBe(404);
          expect(await response.json(), what).toEqual({ error: expect.stringMatching(new RegExp(`^No API endpoint ${route.method} /api/`)) });
        }
      }
    }
    // An admin reaches the same routes through the same spellings.
    for (const spelt of spellings("/api/admin/orders")) expect((await app.request(spelt.replace(/\/$/, ""), { headers: { cookie: admin } })).status, spelt).toBe(200);
  });

  it("answers every back-office page, however spelt, exactly as an unknown address to anyone but an admin", async () => {
    const { app, customer, admin } = await setup();
    const pages = backOfficePages((await build()).routes);
    expect(pages).toEqual(expect.arrayContaining(["/admin", "/admin/orders/pi_1", "/admin/products/1"]));
    for (const cookie of [undefined, customer]) {
      const headers: Record<string, string> = cookie ? { cookie } : {};
      const unknown = await app.request("/no-such-page", { headers });
      const unknownBody = stripped(await unknown.text());
      const unknownData = await app.request("/no-such-page.data", { headers });
      const unknownDataBody = await unknownData.text();
      for (const page of pages) {
        for (const spelt of [...spellings(page), page.toUpperCase()]) {
          const what = `${spelt} ${cookie ? "as a customer" : "anonymously"}`;
          const response = await app.request(spelt, { headers });
          expect({ status: response.status, cacheControl: response.headers.get("cache-control") }, what).toEqual({
            status: unknown.status,
            cacheControl: unknown.headers.get("cache-control"),
          });
          expect(stripped(await response.text()), what).toBe(unknownBody);
          const data = await app.request(`${spelt.replace(/\/$/, "")}.data`, { headers });
          expect({ status: data.status, body: await data.text() }, `${what}.data`).toEqual({ status: unknownData.status, body: unknownDataBody });
        }
        // A form posted to a back-office page gets what a form posted to an unknown address gets
        // (whose page quotes the address it was posted to), and reaches no action.
        const form = { method: "POST", headers: { ...headers, origin: TEST_ORIGIN, "content-type": "application/x-www-form-urlencoded" }, body: "intent=archive&version=1" };
        const posted = await app.request(page.replace("admin", "%61dmin"), form);
        const postedUnknown = await app.request("/__no-such-page", form);
        expect(posted.status, `POST ${page}`).toBe(postedUnknown.status);
        expect(stripped(await posted.text()), `POST ${page}`).toBe(stripped(await postedUnknown.text()));
      }
    }
    // The admin gets the back office through the same spellings, privately.
    for (const spelt of spellings("/admin/orders")) {
      const response = await app.request(spelt, { headers: { cookie: admin } });
      expect(response.status, spelt).toBe(200);
      expect(response.headers.get("cache-control"), spelt).toBe("private, no-store");
      expect(await response.text(), spelt).toContain("Back office");
    }
  });

  it("keeps the back office out of route discovery for anyone but an admin, however its paths are spelt", async () => {
    const { app, customer, admin } = await setup();
    const home = await (await app.request("/")).text();
    const version = /"version":\s*"([^"]+)"/.exec(home)![1]!;
    const discovery = (paths: string[]) => `/__manifest?paths=${encodeURIComponent(paths.join(","))}&version=${version}`;
    for (const cookie of [undefined, customer]) {
      const headers: Record<string, string> = cookie ? { cookie } : {};
      const plain = await app.request(discovery(["/cart"]), { headers });
      const plainBody = await plain.text();
      for (const spelt of [...spellings("/admin/orders"), "/ADMIN", "/%61dmin/audit"]) {
        const response = await app.request(discovery([spelt, "/cart"]), { headers });
        expect({ body: await response.text(), cacheControl: response.headers.get("cache-control") }, spelt).toEqual({
          body: plainBody,
          cacheControl: plain.headers.get("cache-control"),
        });
      }
    }
    const response = await app.request(discovery(["/%61dmin/orders"]), { headers: { cookie: admin } });
    expect(await response.text()).toContain("routes/admin/orders");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });
});
