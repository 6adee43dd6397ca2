import fs from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { TEST_ORIGIN, signUp, testApp } from "../test/support/app.ts";
import { builtPages } from "../test/support/pages.ts";

/** Timers keeping the process alive: a finished render must not leave one holding its page. */
const liveTimers = () => process.getActiveResourcesInfo().filter((type) => type === "Timeout").length;

describe("server rendering", () => {
  it("leaves nothing of a finished page behind: its cut-off timer goes when the render is done", async () => {
    const { app } = await testApp({ ssr: await builtPages(), env: { PAGE_CACHE_ENTRIES: "0" } });
    const cookie = await signUp(app, "renders@example.com");
    const paths = ["/", "/products/1", "/results/electronics", "/cart", "/auth", "/orders"];
    const before = liveTimers();
    for (let round = 0; round < 5; round++) {
      for (const path of paths) {
        const response = await app.request(`${TEST_ORIGIN}${path}`, { headers: { cookie } });
        expect(response.status).toBe(200);
        expect(await response.text()).toContain("</html>");
      }
    }
    // 30 pages rendered: each used to keep a six-second timer (and with it its whole render) alive.
    expect(liveTimers() - before).toBeLessThan(3);
  });

  it("runs React Router as published, one copy of it on the server", async () => {
    const server = fs
      .readdirSync("build/server", { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".js"))
      .map((file) => ({ file, code: fs.readFileSync(path.join("build/server", file), "utf8") }));
    // The route modules import the installed package, the same copy as the request handler the
    // server takes from the build (app/server-build.ts): no bundled copy of React Router's files.
    expect(server.some(({ code }) => /from\s*["']react-router["']/.test(code))).toBe(true);
    for (const { file, code } of server) expect(code, file).not.toContain("function createStaticHandler(");

    const { app } = await testApp({ ssr: await builtPages(), env: { PAGE_CACHE_ENTRIES: "0" } });
    // The product page's loader answers an unknown product with data(..., { status: 404 }), and the
    // orders page redirects a visitor who is not signed in: both reach the browser only when the
    // handler recognises what the route module made.
    expect((await app.request(`${TEST_ORIGIN}/products/999`)).status).toBe(404);
    const orders = await app.request(`${TEST_ORIGIN}/orders`);
    expect(orders.status).toBe(302);
    expect(orders.headers.get("location")).toBe("/auth?redirectTo=%2Forders");
  });

  it("answers a rendered page whole, with its length, plain or gzipped", async () => {
    const { app } = await testApp({ ssr: await builtPages(), env: { PAGE_CACHE_ENTRIES: "0" } });
    const plain = await app.request(`${TEST_ORIGIN}/products/1`);
    const html = Buffer.from(await plain.arrayBuffer());
    expect(plain.headers.get("content-length")).toBe(String(html.length));
    expect(html.toString()).toMatch(/^<!DOCTYPE html>.*<h1 class="card__title">[^<]+<\/h1>.*<\/html>$/s);
    expect(html.toString()).not.toContain('rel="modulepreload"');

    const gzipped = await app.request(`${TEST_ORIGIN}/products/1`, { headers: { "accept-encoding": "gzip, deflate, br" } });
    const body = Buffer.from(await gzipped.arrayBuffer());
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(gzipped.headers.get("content-length")).toBe(String(body.length));
    // The same page but for its nonce, which differs per response.
    const nonce = (page: string) => page.replace(/nonce="[^"]+"/g, 'nonce=""');
    expect(nonce(gunzipSync(body).toString())).toBe(nonce(html.toString()));
  });

  it("gives each page the route manifest and modules of its own address, whatever was rendered before", async () => {
    // Each page gets its own manifest and modules, in any order of rendering.
    const { app } = await testApp({ ssr: await builtPages(), env: { PAGE_CACHE_ENTRIES: "0" } });
    const expected: Record<string, { manifest: string[]; modules: string[] }> = {
      "/products/1": { manifest: ["root", "routes/home", "routes/not-found", "routes/product"], modules: ["root", "routes/product"] },
      "/results/electronics": { manifest: ["root", "routes/home", "routes/not-found", "routes/results"], modules: ["root", "routes/results"] },
      "/products/2": { manifest: ["root", "routes/home", "routes/not-found", "routes/product"], modules: ["root", "routes/product"] },
      "/": { manifest: ["root", "routes/home"], modules: ["root", "routes/home"] },
      "/cart": { manifest: ["root", "routes/cart", "routes/home"], modules: ["root", "routes/cart"] },
      "/nowhere": { manifest: ["root", "routes/home", "routes/not-found"], modules: ["root", "routes/not-found"] },
      "/results/nowhere/further": { manifest: ["root", "routes/home", "routes/not-found", "routes/results"], modules: ["root", "routes/not-found"] },
    };
    for (const round of [1, 2]) {
      for (const [path, { manifest, modules }] of Object.entries(expected)) {
        const html = await (await app.request(`${TEST_ORIGIN}${path}`)).text();
        const routes = JSON.parse(/window\.__reactRouterManifest = (\{.*?\n\});/s.exec(html)![1]!).routes as Record<string, { id: string }>;
        expect(Object.keys(routes).sort(), `${path}, round ${round}`).toEqual(manifest);
        const imported = /window\.__reactRouterRouteModules = \{(.*?)\};/.exec(html)![1]!.split(",").map((entry) => JSON.parse(entry.split(":")[0]!));
        expect(imported, `${path}, round ${round}`).toEqual(modules);
      }
    }
  });

  it("holds the first frame until the page's content is parsed whole (no half-parsed header to shift)", async () => {
    const { app } = await testApp({ ssr: await builtPages(), env: { PAGE_CACHE_ENTRIES: "0" } });
    for (const path of ["/", "/products/1", "/results/electronics", "/cart", "/auth", "/nowhere"]) {
      const html = await (await app.request(`${TEST_ORIGIN}${path}`)).text();
      const [head, body] = html.split("</head>") as [string, string];
      expect(head, path).toContain('<link rel="expect" href="#main" blocking="render"/>');
      // What it waits for is in the page, once, after the header.
      expect(body.match(/ id="main"/g), path).toHaveLength(1);
      expect(body.indexOf("</header>"), path).toBeLessThan(body.indexOf(' id="main"'));
    }
  });

  it("lays the stylesheet into its slot in the head of every rendered page, signed in or not", async () => {
    const { app } = await testApp({ ssr: await builtPages(), env: { PAGE_CACHE_ENTRIES: "0" } });
    const cookie = await signUp(app, "styles@example.com");
    const sheets = new Set<string>();
    for (const [path, headers] of [["/products/1", {}], ["/", {}], ["/orders", { cookie }], ["/nowhere", {}]] as const) {
      const html = await (await app.request(`${TEST_ORIGIN}${path}`, { headers })).text();
      expect(html, path).toMatch(/^<!DOCTYPE html><html lang="en"><head>/);
      // The slot the stylesheet is rendered with (app/document-bytes.server.ts) never reaches the browser.
      expect(html, path).not.toContain("storefront:stylesheet");
      const head = html.slice(0, html.indexOf("</head>"));
      const styles = [...head.matchAll(/<style nonce="[^"]+">([^<]*)<\/style>/g)].map((match) => match[1]);
      expect(styles, path).toHaveLength(1);
      // The first and the last of the app's stylesheets (app.css, then the rest in path order).
      expect(styles[0], path).toMatch(/^\*,\*:before,\*:after\{box-sizing:border-box\}.*background:#eaeded.*\.suggestions__option.*\}$/);
      sheets.add(styles[0]!);
    }
    expect(sheets.size).toBe(1);
  });
});
