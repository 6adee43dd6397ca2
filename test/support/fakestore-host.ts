import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import type { FakeStoreProduct } from "../../server/catalogue/product.ts";

/**
 * The real fakestoreapi.com dataset (20 products), copied into test/fixtures so the repository alone
 * passes its tests.
 * Test data only: the shop never ships it.
 */
export const FAKESTORE_FIXTURE = fileURLToPath(new URL("../fixtures/fakestore-products.json", import.meta.url));
const FAKESTORE_IMAGE_ORIGIN = "https://fakestoreapi.com";

export function fakeStoreProducts(): FakeStoreProduct[] {
  return JSON.parse(fs.readFileSync(FAKESTORE_FIXTURE, "utf8")) as FakeStoreProduct[];
}

interface Host {
  url: string;
  /** Every path asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closeServer(server: http.Server): Promise<void> {
  if (!server.listening) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * Stands in for the host of FakeStore's product photos: any /img/<name>.png or .jpg is a large
 * picture made with sharp (a gradient, shapes and grain, about 900×1100 px and hundreds of KB, as
 * FakeStore's full-size photos are), the same bytes for the same name.
 */
export async function startImageHost(): Promise<Host & { state: { failing: boolean } }> {
  const requests: string[] = [];
  const state = { failing: false };
  const made = new Map<string, Promise<Buffer>>();
  const server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    requests.push(path);
    const match = /^\/img\/[^/]+\.(png|jpe?g)$/.exec(path);
    if (state.failing) return void res.writeHead(500).end();
    if (!match) return void res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    const format = match[1] === "png" ? "png" : "jpeg";
    if (!made.has(path)) made.set(path, picture(path, format));
    made.get(path)!.then(
      (body) => res.writeHead(200, { "content-type": `image/${format}`, "content-length": body.length }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  const url = await listen(server);
  return { url, requests, state, close: () => closeServer(server) };
}

const [width, height] = [900, 1100];
let grains: Promise<Buffer> | undefined;

/** Photo grain (noise) to lay over every picture: what makes a photo costly to store. Made once. */
function grain(): Promise<Buffer> {
  grains ??= sharp({
    create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 }, noise: { type: "gaussian", mean: 128, sigma: 24 } },
  })
    .png({ compressionLevel: 0 })
    .toBuffer();
  return grains;
}

async function picture(seed: string, format: "png" | "jpeg"): Promise<Buffer> {
  const digest = createHash("sha256").update(seed).digest();
  const colour = (i: number) => `rgb(${digest[i]},${digest[i + 1]},${digest[i + 2]})`;
  const drawing = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
      `<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="${colour(0)}"/></linearGradient></defs>` +
      `<rect width="${width}" height="${height}" fill="url(#g)"/>` +
      `<ellipse cx="450" cy="560" rx="${250 + (digest[3]! % 100)}" ry="360" fill="${colour(4)}"/>` +
      `<rect x="300" y="250" width="300" height="420" rx="40" fill="${colour(8)}" transform="rotate(${digest[11]! % 40} 450 460)"/>` +
      `</svg>`,
  );
  const image = sharp(drawing).composite([{ input: await grain(), blend: "soft-light" }]);
  // Fast, light compression: big files, as FakeStore's photos are, without spending the tests' time.
  return format === "png" ? image.png({ compressionLevel: 1 }).toBuffer() : image.jpeg({ quality: 92 }).toBuffer();
}

export type FakeStoreMode = "ok" | "error" | "slow";

/**
 * A FakeStore-compatible host serving the real dataset, its image URLs pointed at `imageOrigin`
 * (a local image host) instead of fakestoreapi.com, and `extraProducts` after them. `mode` switches how it answers: "slow" answers
 * after `delayMs`; `close()` stops it altogether (connections refused).
 */
export async function startFakeStoreHost(
  imageOrigin: string,
  extraProducts: FakeStoreProduct[] = [],
): Promise<Host & { state: { mode: FakeStoreMode; delayMs: number; unanswered: number }; products: FakeStoreProduct[] }> {
  const products = [...fakeStoreProducts().map((p) => ({ ...p, image: p.image.replace(FAKESTORE_IMAGE_ORIGIN, imageOrigin) })), ...extraProducts];
  const requests: string[] = [];
  // unanswered: slow requests the host has not answered yet (whether or not the client still waits).
  const state = { mode: "ok" as FakeStoreMode, delayMs: 8_000, unanswered: 0 };
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").replace(/\?.*$/, "");
    requests.push(path);
    const answer = () => {
      if (state.mode === "error") return send(res, 500, { message: "boom" });
      if (path === "/products") return send(res, 200, products);
      if (path === "/products/categories") return send(res, 200, [...new Set(products.map((p) => p.category))]);
      const category = /^\/products\/category\/(.+)$/.exec(path);
      if (category) return send(res, 200, products.filter((p) => p.category === decodeURIComponent(category[1]!)));
      const one = /^\/products\/(\d+)$/.exec(path);
      const product = one && products.find((p) => p.id === Number(one[1]));
      if (one) return product ? send(res, 200, product) : void res.writeHead(200).end();
      send(res, 404, { message: "not found" });
    };
    if (state.mode !== "slow") return answer();
    state.unanswered += 1;
    const timer = setTimeout(() => {
      timers.delete(timer);
      state.unanswered -= 1;
      if (!res.destroyed) answer();
    }, state.delayMs);
    timers.add(timer);
  });
  const url = await listen(server);
  return {
    url,
    requests,
    state,
    products,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      await closeServer(server);
    },
  };
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
