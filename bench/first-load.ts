// First-load JavaScript of the shop's pages, as transferred (encoded bytes), on the production build:
// the scripts the server-rendered document names (what hydration waits for), and everything the
// browser fetches until the network is idle (code loaded later on purpose, such as the carousel's
// engine, included).
// Usage: npm run bench:first-load [-- / /cart ...]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { startServer } from "../server/test-support/server-process.ts";

const pages = process.argv.slice(2).filter((a) => a.startsWith("/"));
const urls = pages.length > 0 ? pages : ["/", "/products/1", "/results/electronics", "/cart", "/auth"];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-first-load-"));
const server = await startServer({ DATA_DIR: dataDir });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: ["--no-sandbox"] });
try {
  console.log("| page | scripts in the document | transferred | scripts until idle | transferred until idle |");
  console.log("|---|---|---|---|---|");
  for (const url of urls) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const sizes: Array<Promise<{ encoded: number; path: string }>> = [];
    page.on("response", (response) => {
      if (response.request().resourceType() !== "script") return;
      const path = new URL(response.url()).pathname;
      sizes.push(response.request().sizes().then((s) => ({ encoded: s.responseBodySize, path })));
    });
    const document = await page.goto(`${server.url}${url}`, { waitUntil: "networkidle" });
    const named = new Set([...(await document!.text()).matchAll(/"(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]));
    const all = await Promise.all(sizes);
    const early = all.filter((s) => named.has(s.path));
    const kb = (list: typeof all) => `${(list.reduce((sum, x) => sum + x.encoded, 0) / 1024).toFixed(1)} KB`;
    console.log(`| ${url} | ${early.length} | ${kb(early)} | ${all.length} | ${kb(all)} |`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
