// HTTP throughput of the shop against a raw node:http server answering the same bytes, measured in
// the same run: autocannon, 50 connections, 10 s per address (5 s with --short), production build.
// Usage: npm run bench:http [-- --short]
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startServer } from "../server/test-support/server-process.ts";

const seconds = process.argv.includes("--short") ? 5 : 10;
const only = process.argv.indexOf("--only");
const URLS = only > 0 ? [process.argv[only + 1]!] : ["/api/catalogue/products", "/products/1", "/"];

interface Run {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(url: string, headers: Record<string, string>): Promise<Run> {
  const result = await autocannon({ url, connections: 50, duration: seconds, headers });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/** A bare node:http server that answers every request with this status, these headers and these bytes. */
async function raw(status: number, headers: Record<string, string>, body: Buffer) {
  const server = http.createServer((_req, res) => res.writeHead(status, headers).end(body));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

/** The response as sent (no decompression): status, headers to repeat, and the bytes. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const kept: Record<string, string> = {};
          for (const [key, value] of Object.entries(res.headers)) {
            if (typeof value === "string" && !["content-length", "transfer-encoding", "connection", "keep-alive", "date"].includes(key)) kept[key] = value;
          }
          resolve({ status: res.statusCode ?? 200, headers: kept, body: Buffer.concat(chunks) });
        });
      })
      .on("error", reject);
  });
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-bench-http-"));
const shop = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: "info" });
const headers = { "accept-encoding": "gzip, br" };
try {
  console.log(`| address | raw node:http req/s | shop req/s | shop p50 | shop p99 | ratio to raw |`);
  console.log(`|---|---|---|---|---|---|`);
  for (const url of URLS) {
    // The raw server sends exactly what the shop sent for this address (compressed bytes included).
    const sample = await rawGet(`${shop.url}${url}`, headers);
    const baseline = await raw(sample.status, sample.headers, sample.body);
    const rawRun = await load(`${baseline.url}${url}`, headers);
    await baseline.close();
    const ours = await load(`${shop.url}${url}`, headers);
    const ratio = ours.rps / rawRun.rps;
    console.log(
      `| ${url} | ${Math.round(rawRun.rps)} | ${Math.round(ours.rps)} | ${ours.p50} ms | ${ours.p99} ms | ${ratio.toFixed(3)} |${ours.errors ? ` ${ours.errors} errors` : ""}`,
    );
  }
} finally {
  await shop.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
