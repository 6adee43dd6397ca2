import http from "node:http";
import type { AddressInfo } from "node:net";
import type { FakeStoreProduct } from "../../server/catalogue/product.ts";
import { type RefreshOutcome, RemoteCatalogue, type RemoteCatalogueOptions } from "../../server/catalogue/remote.ts";
import { memoryLogger } from "./logger.ts";

export type FakeMode = "ok" | "garbage" | "error" | "hang";

export const FAKE_PRODUCTS: FakeStoreProduct[] = [
  { id: 1, title: "Remote Rucksack", price: 109.95, description: "A bag from afar.", category: "men's clothing", image: "https://img.example/1.png", rating: { rate: 3.9, count: 120 } },
  { id: 2, title: "Remote Ring", price: 695, description: "A ring from afar.", category: "jewelery", image: "https://img.example/2.png", rating: { rate: 4.6, count: 400 } },
  { id: 3, title: "Remote Drive", price: 64, description: "A drive from afar.", category: "electronics", image: "https://img.example/3.png", rating: { rate: 4.8, count: 319 } },
];

/**
 * A small FakeStore-compatible host on 127.0.0.1 for the remote catalogue tests. `mode` switches how
 * it answers; `malformed` adds products that must be dropped; `requests` counts what it was asked.
 */
export async function startFakeCatalogue() {
  // held: requests a hanging host has not answered (yet); release() answers them as the mode then says.
  const state = { mode: "ok" as FakeMode, malformed: false, requests: [] as string[], held: [] as Array<() => void> };
  const server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    state.requests.push(path);
    if (state.mode === "hang") return void state.held.push(() => answer(path, res));
    answer(path, res);
  });
  function answer(path: string, res: http.ServerResponse) {
    if (res.destroyed) return;
    if (state.mode === "error") return send(res, 500, { message: "boom" });
    if (state.mode === "garbage") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end("<html>this is not json");
    }
    const products = state.malformed
      ? [...FAKE_PRODUCTS, { id: 4, title: "", price: "free" }, { id: 5, title: "<script>alert(1)</script>", price: -3 }, null]
      : FAKE_PRODUCTS;
    if (path === "/products") return send(res, 200, products);
    if (path === "/products/categories") return send(res, 200, [...new Set(FAKE_PRODUCTS.map((p) => p.category))]);
    const category = path.match(/^\/products\/category\/(.+)$/);
    if (category) return send(res, 200, products.filter((p) => p && (p as FakeStoreProduct).category === decodeURIComponent(category[1]!)));
    const one = path.match(/^\/products\/(\d+)$/);
    if (one) {
      const product = products.find((p) => p && (p as { id: number }).id === Number(one[1]));
      // Like fakestoreapi.com: an unknown id is a 200 with an empty body.
      if (!product) return res.writeHead(200).end();
      return send(res, 200, product);
    }
    send(res, 404, { message: "not found" });
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    state,
    /** Answers every held request as the current mode says. */
    release() {
      for (const answerHeld of state.held.splice(0)) answerHeld();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Resolves with how the remote catalogue's next refresh ends (subscribe before starting it). */
export function nextRefresh(catalogue: RemoteCatalogue): Promise<RefreshOutcome> {
  return new Promise((resolve) => {
    const off = catalogue.onRefresh((outcome) => {
      off();
      resolve(outcome);
    });
  });
}

/** A clock the tests move by hand: freshness and the circuit breaker's pauses without waiting. */
export function manualClock(start = Date.parse("2025-06-01T12:00:00Z")) {
  let time = start;
  return { now: () => time, advance: (ms: number) => void (time += ms) };
}

/** A RemoteCatalogue on the fake host at `url`, logging into memory (its records returned). */
export function remoteOn(url: string, options: Partial<RemoteCatalogueOptions> = {}) {
  const { log, records } = memoryLogger();
  const catalogue = new RemoteCatalogue({ baseUrl: url, timeoutMs: 300, cacheSeconds: 60, log, ...options });
  return { catalogue, records };
}
