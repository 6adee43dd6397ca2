import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { TEST_ORIGIN, testApp } from "../../test/support/app.ts";
import { builtPages } from "../../test/support/pages.ts";

// What the first load of a page rendered from the production build asks of the network: no
// stylesheet request before the first paint, and the hydration code after the page's content.
const clientDir = path.resolve("build/client");
const PAGES = ["/", "/products/1", "/results/electronics", "/cart", "/auth"];

let app: Awaited<ReturnType<typeof testApp>>["app"];
beforeAll(async () => {
  ({ app } = await testApp({ ssr: await builtPages(), clientDir }));
});

async function page(pathname: string) {
  const response = await app.request(`${TEST_ORIGIN}${pathname}`);
  const html = await response.text();
  const csp = response.headers.get("content-security-policy") ?? "";
  const styleSrc = csp.split(";").map((directive) => directive.trim()).find((directive) => directive.startsWith("style-src")) ?? "";
  const head = html.slice(0, html.indexOf("</head>"));
  const styles = [...head.matchAll(/<style nonce="([^"]+)">([^<]*)<\/style>/g)].map((m) => ({ nonce: m[1], css: m[2]! }));
  return { status: response.status, html, styleSrc, styles };
}

/** The first class name of each stylesheet under app/. */
function classOfEachStylesheet(): Map<string, string> {
  const sheets = fs.readdirSync("app", { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".css"));
  return new Map(sheets.map((file) => [file, /\.([a-z][\w-]*)/.exec(fs.readFileSync(path.join("app", file), "utf8"))![1]!]));
}

describe("the stylesheet", () => {
  it.each(PAGES)("is inline in the head of %s, with the nonce its CSP allows, and no stylesheet is linked", async (pathname) => {
    const { status, html, styleSrc, styles } = await page(pathname);
    expect(status).toBe(200);
    expect(styles).toHaveLength(1);
    const [style] = styles;
    expect(styleSrc).toBe(`style-src 'self' 'nonce-${style!.nonce}'`);
    // The page background, from app.css.
    expect(style!.css).toContain("background:#eaeded");
    expect(html).not.toMatch(/rel="stylesheet"|\.css"/);
  });

  it("holds every stylesheet of the app, those of lazily loaded parts included", async () => {
    const [style] = (await page("/")).styles;
    const classes = classOfEachStylesheet();
    expect(classes.size).toBeGreaterThan(10);
    for (const [file, name] of classes) expect(style!.css, file).toContain(`.${name}`);
  });

  it("is fresh with each response's nonce when the page comes from the page cache", async () => {
    const first = await page("/auth");
    const second = await page("/auth");
    expect(second.styles[0]!.nonce).not.toBe(first.styles[0]!.nonce);
    expect(second.styleSrc).toBe(`style-src 'self' 'nonce-${second.styles[0]!.nonce}'`);
  });

  it("is not also sent as a file or inside the scripts", () => {
    const files = fs.readdirSync(clientDir, { recursive: true, encoding: "utf8" });
    expect(files.filter((file) => file.endsWith(".css"))).toEqual([]);
    const scripts = files.filter((file) => file.endsWith(".js")).map((file) => fs.readFileSync(path.join(clientDir, file), "utf8"));
    for (const script of scripts) expect(script).not.toContain("background:#eaeded");
  });
});

describe("the hydration code", () => {
  it.each(PAGES)("is not preloaded from the head of %s, and the closing script imports it after the first paint", async (pathname) => {
    const { html } = await page(pathname);
    expect(html).not.toContain('rel="modulepreload"');
    const closing = /<script nonce="[^"]+" type="module" async="">([^<]*)<\/script>/.exec(html)?.[1] ?? "";
    // No static import (fetched and compiled as the script is parsed): dynamic ones, once painted (after-first-paint.server.ts).
    expect(closing).not.toMatch(/(?:^|[;\s])import\s*(?:\*|"|\{)/);
    expect(closing).toContain("first-contentful-paint");
    expect(closing).toMatch(/import\("\/assets\/root-[\w-]+\.js"\)/);
    expect(closing).toMatch(/var route0=modules\[0\]/);
    expect(closing).toMatch(/import\("\/assets\/entry\.client-[\w-]+\.js"\)/);
    expect(closing).toMatch(/^;window\.__storefrontRoutesSet=/);
  });
});

// A page's first load sends at most 100 KB of JavaScript, as Lighthouse counts it (the
// bytes transferred: compressed bodies and response headers; bench/lighthouse.ts measures it in a
// browser). This is the same sum from the build, without a browser: the scripts the document's
// closing script imports, and every module they import statically, in turn.
const FIRST_LOAD_JS_BUDGET = 100 * 1024;

/** The paths of the modules `source` imports statically (`import(...)` is lazy and left out). */
function staticImportsOf(source: string, from: string): string[] {
  const specifiers = [...source.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+\.js)["']/g)].map((m) => m[1]!);
  return specifiers.map((specifier) => new URL(specifier, `http://x${from}`).pathname);
}

/** Bytes of one asset as the server sends it to a browser that accepts brotli: headers and body. */
async function sentBytes(pathname: string): Promise<{ bytes: number; body: string; encoding: string | null }> {
  const response = await app.request(`${TEST_ORIGIN}${pathname}`, { headers: { "accept-encoding": "br, gzip" } });
  expect(response.status, pathname).toBe(200);
  const compressed = Buffer.from(await response.arrayBuffer());
  let headers = "HTTP/1.1 200 OK\r\n\r\n".length;
  response.headers.forEach((value, name) => (headers += `${name}: ${value}\r\n`.length));
  const encoding = response.headers.get("content-encoding");
  const body = (encoding === "br" ? zlib.brotliDecompressSync(compressed) : compressed).toString("utf8");
  return { bytes: headers + compressed.length, body, encoding };
}

describe("the first load's JavaScript", () => {
  it.each(PAGES)(`of %s is at most ${FIRST_LOAD_JS_BUDGET / 1024} KB as sent, brotli bodies and headers`, async (pathname) => {
    const { html } = await page(pathname);
    const closing = /<script nonce="[^"]+" type="module" async="">([^<]*)<\/script>/.exec(html)?.[1] ?? "";
    // Every module the closing script imports (dynamically in form, after the first paint; the client
    // entry last) is needed before the page hydrates.
    const pending = [...closing.matchAll(/import\("(\/assets\/[\w.-]+\.js)"\)/g)].map((m) => m[1]!);
    expect(pending.some((script) => script.includes("/root-"))).toBe(true);
    const sent = new Map<string, number>();
    for (let script = pending.pop(); script !== undefined; script = pending.pop()) {
      if (sent.has(script)) continue;
      const { bytes, body, encoding } = await sentBytes(script);
      expect(encoding, script).toBe("br");
      sent.set(script, bytes);
      pending.push(...staticImportsOf(body, script));
    }
    expect([...sent.keys()].some((script) => script.includes("/entry.client-"))).toBe(true);
    const total = [...sent.values()].reduce((sum, bytes) => sum + bytes, 0);
    expect(total, [...sent].map(([script, bytes]) => `${script} ${bytes}`).join(", ")).toBeLessThanOrEqual(FIRST_LOAD_JS_BUDGET);
  });
});
