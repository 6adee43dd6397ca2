import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin, type Rollup } from "vite";

export default defineConfig({
  plugins: [reactRouter(), precompress()],
  build: {
    // Images stay files: one inlined as a data: URL would travel twice, in the page and again
    // inside the JavaScript chunk that renders it.
    assetsInlineLimit: 0,
    // terser's second pass makes the framework chunk about 4 KB smaller (brotli) than esbuild does;
    // the first load's budget is 100 KB. Vite reads this option from the top level only.
    minify: "terser",
    terserOptions: { compress: { passes: 2 } },
    // The stylesheets reach the page inlined by the server renderer (app/styles.server.ts).
    cssMinify: true,
  },
  environments: {
    // The server bundle is not sent anywhere; readable stack traces are worth more there. Its entry
    // also hands the server the request handler of the React Router it bundles (app/server-build.ts).
    ssr: { build: { minify: false, rollupOptions: { input: "./app/server-build.ts" } } },
    client: { build: { rollupOptions: { output: { manualChunks: firstLoadChunk } } } },
  },
});

/**
 * Rollup's default chunking gives the first load a dozen small files, and on HTTP/1.1 each one
 * costs a request and about 0.9 KB of response headers (the security headers ride on every
 * response): a tenth of the budget. So what every page needs goes into one chunk: the client entry
 * (React, React Router) and every module that two or more routes import. What one route alone
 * imports stays in that route's chunk, what only back-office routes share goes into a chunk of its
 * own, and what is imported lazily (the carousel's engine, search suggestions, Stripe) stays lazy.
 */
function firstLoadChunk(id: string, meta: Rollup.ManualChunkMeta): string | undefined {
  const entries = [...meta.getModuleIds()].filter((module) => meta.getModuleInfo(module)?.isEntry);
  const reaches = (from: string) => staticImports(from, meta).has(id);
  const clientEntry = entries.find((entry) => /\/entry\.client\.[jt]sx?$/.test(entry));
  if (clientEntry && reaches(clientEntry)) return "framework";
  // Route modules are entries too (one per route file, a query string after the name).
  const routes = new Set(entries.filter((entry) => entry !== clientEntry && reaches(entry)).map((entry) => entry.split("?")[0]!));
  if (routes.size < 2) return undefined;
  // What only the back office's pages share is the back office's: a shopper's first load leaves it out.
  return [...routes].every((route) => route.includes("/app/routes/admin/")) ? "back-office" : "framework";
}

/** Every module `from` imports statically, directly or not, itself included. */
function staticImports(from: string, meta: Rollup.ManualChunkMeta): Set<string> {
  const seen = new Set<string>();
  const pending = [from];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    pending.push(...(meta.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|html|txt|xml|webmanifest)$/;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `name.br` (brotli, best quality) and `name.gz` (gzip, best level) beside every
 * compressible file of the client build, public files included, so the server sends them as they
 * are (server/http/static-files.ts) instead of compressing on every request at a lower level. A
 * variant that is not smaller than its original is not written.
 */
function precompress(): Plugin {
  return {
    name: "storefront:precompress",
    apply: "build",
    // After every environment is built: React Router writes its manifest into the client folder
    // while it builds the server.
    buildApp: {
      order: "post",
      async handler(builder) {
        const client = builder.environments.client;
        if (!client) return;
        const dir = path.resolve(client.config.root, client.config.build.outDir);
        const files = (await fs.readdir(dir, { recursive: true })).filter((file) => COMPRESSIBLE.test(file) && !file.startsWith("."));
        await Promise.all(files.map((file) => writeCompressed(path.join(dir, file))));
      },
    },
  };
}

async function writeCompressed(file: string) {
  const source = await fs.readFile(file);
  const variants: Array<[string, Buffer]> = [
    [
      ".br",
      await brotli(source, {
        params: {
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
        },
      }),
    ],
    [".gz", await gzip(source, { level: zlib.constants.Z_BEST_COMPRESSION })],
  ];
  for (const [suffix, body] of variants) if (body.length < source.length) await fs.writeFile(file + suffix, body);
}
