import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, products, test } from "./support.ts";

// A FakeStore client is a page on someone else's site that calls our catalogue API from the browser.
// Here that site is a small server on another port of 127.0.0.1: another origin, so the browser
// applies its cross-origin rules to every call the page makes to the shop.
let client: http.Server;
let clientOrigin: string;
const pages = new Map<string, { body: string; headers?: Record<string, string> }>();

test.beforeAll(async () => {
  client = http.createServer((req, res) => {
    const page = pages.get(req.url ?? "");
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html", ...page.headers }).end(page.body);
  });
  await new Promise<void>((resolve) => client.listen(0, "127.0.0.1", resolve));
  clientOrigin = `http://127.0.0.1:${(client.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  client.closeAllConnections();
  await new Promise((resolve) => client.close(resolve));
});

test("a page on another site reads the catalogue API, and only the catalogue API", async ({ page, baseURL }) => {
  const shop = new URL(baseURL!);
  pages.set("/fakestore-client", { body: "<!doctype html><title>FakeStore client</title><h1>Client</h1>" });
  await page.goto(`${clientOrigin}/fakestore-client`);
  expect(new URL(page.url()).origin).not.toBe(shop.origin);

  const api = `${shop.origin}/api/catalogue/products`;
  const listed = page.waitForResponse((response) => response.url() === api);
  const read = await page.evaluate(async (url) => {
    const plain = await fetch(url);
    const list = (await plain.json()) as Array<{ id: number; title: string; price: number; image: string }>;
    // A custom header makes the browser ask first (a preflight OPTIONS request).
    const asked = await fetch(`${url}/category/jewelery?sort=DESC&limit=2`, { headers: { "X-Requested-With": "FakeStoreClient" } });
    const jewelery = (await asked.json()) as Array<{ id: number }>;
    // The rest of our API stays closed to other sites: the browser does not hand over the answer.
    const health = await fetch(url.replace("/catalogue/products", "/health")).then(
      () => "read",
      (error: unknown) => String(error),
    );
    return { status: plain.status, list, jewelery: jewelery.map((p) => p.id), askedStatus: asked.status, health };
  }, api);

  const headers = (await listed).headers();
  expect(headers["access-control-allow-origin"]).toBe("*");
  expect(headers["access-control-allow-credentials"]).toBeUndefined();
  expect(headers["cross-origin-resource-policy"]).toBe("cross-origin");

  expect(read.status).toBe(200);
  expect(read.list.map((p) => p.id)).toEqual(products.map((p) => p.id).sort((a, b) => a - b));
  expect(read.list[0]).toMatchObject({ title: expect.any(String), price: expect.any(Number), image: expect.stringMatching(/^http:\/\//) });
  expect(read.askedStatus).toBe(200);
  const jewelery = products.filter((p) => p.category === "jewelery").map((p) => p.id).sort((a, b) => b - a);
  expect(read.jewelery).toEqual(jewelery.slice(0, 2));
  expect(read.health).toMatch(/TypeError/);
});

test("a page on another site can show our product images", async ({ page, baseURL }) => {
  const product = (await (await page.request.get(`${baseURL}/api/catalogue/products/1`)).json()) as { image: string };
  pages.set("/gallery", {
    // COEP require-corp: the browser shows a cross-origin image only if the image says it may be embedded.
    headers: { "cross-origin-embedder-policy": "require-corp" },
    body: `<!doctype html><title>Gallery</title><img id="product" src="${product.image}" width="200" height="200" alt="">`,
  });
  await page.goto(`${clientOrigin}/gallery`);
  await expect.poll(() => page.locator("#product").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
});
