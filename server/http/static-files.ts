import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import type { MiddlewareHandler } from "hono";

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE_HOURLY = "public, max-age=3600";

/**
 * The built client files (build/client). The build writes a brotli and a gzip copy beside every
 * compressible file (vite.config.ts, `precompress`), at levels too slow for each request: the copy
 * the client accepts is sent as it is (br, else gzip, else the file itself), with its own
 * Content-Encoding and Content-Length, so the global compression middleware leaves it alone.
 */
export function staticFiles(clientDir: string): MiddlewareHandler {
  const serve = serveStatic({ root: path.relative(process.cwd(), clientDir) || ".", precompressed: true });
  return async (c, next) => {
    const response = await serve(c, next);
    // No file by that name: serveStatic passed the request on, and whatever came after answered.
    if (!(response instanceof Response)) return;
    // Vite puts a content hash in every name under assets/; the rest (favicon...) may change.
    response.headers.set("Cache-Control", c.req.path.startsWith("/assets/") ? IMMUTABLE : REVALIDATE_HOURLY);
    // Whichever copy went out, a shared cache must keep them apart (the uncompressed one too).
    response.headers.set("Vary", "Accept-Encoding");
    return response;
  };
}
