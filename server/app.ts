import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { compress } from "hono/compress";
import { NONCE, type SecureHeadersVariables, secureHeaders } from "hono/secure-headers";
import type { Catalogue } from "./catalogue/catalogue.ts";
import { EmbeddedCatalogue, PRODUCT_IMAGE_PATH } from "./catalogue/embedded.ts";
import { catalogueRoutes } from "./catalogue/routes.ts";
import type { Config } from "./config.ts";
import type { AppDatabase } from "./db/database.ts";
import { HttpError } from "./http-error.ts";
import type { SsrHandler } from "./load-context.ts";
import type { Logger } from "./log.ts";

export interface AppDeps {
  config: Pick<Config, "NODE_ENV" | "PUBLIC_URL">;
  log: Logger;
  database: AppDatabase;
  catalogue: Catalogue;
  /** React Router's request handler; absent in API-only tests. */
  ssr?: SsrHandler;
  /** The built client assets (build/client); absent in API-only tests and in development. */
  clientDir?: string;
}

const IMMUTABLE = "public, max-age=31536000, immutable";

export function createApp({ config, log, database, catalogue, ssr, clientDir }: AppDeps) {
  const app = new Hono<{ Variables: SecureHeadersVariables }>();
  const development = config.NODE_ENV === "development";

  app.use("*", async (c, next) => {
    const started = performance.now();
    await next();
    log.info(
      { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) },
      "request",
    );
  });

  app.use(
    "*",
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        // Vite's development server injects inline styles and scripts; production allows neither.
        scriptSrc: development ? ["'self'", "'unsafe-inline'"] : ["'self'", NONCE],
        styleSrc: development ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        imgSrc: ["'self'", "data:", ...catalogue.imageOrigins],
        connectSrc: development ? ["'self'", "ws:"] : ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
      xFrameOptions: "DENY",
      referrerPolicy: "strict-origin-when-cross-origin",
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: config.PUBLIC_URL.startsWith("https:") ? "max-age=31536000; includeSubDomains" : false,
    }),
  );

  app.use("*", compress());

  app.onError((error, c) => {
    if (error instanceof HttpError) return c.json({ error: error.message }, error.status);
    log.error({ err: error, method: c.req.method, path: c.req.path }, "unhandled error");
    return c.json({ error: "Something went wrong on our side." }, 500);
  });

  // --- API ---------------------------------------------------------------------------------
  const api = new Hono();
  api.use(
    "*",
    bodyLimit({
      maxSize: 64 * 1024,
      onError: () => {
        throw new HttpError(413, "The request body is too large.");
      },
    }),
    async (c, next) => {
      // Every JSON body is parsed here once, so a malformed one is a 400 whichever route it hits.
      if (c.req.header("content-type")?.includes("application/json") && c.req.method !== "GET") {
        try {
          await c.req.json();
        } catch {
          throw new HttpError(400, "The request body is not valid JSON.");
        }
      }
      await next();
    },
  );
  api.get("/health", async (c) => {
    const ok = await database.ping();
    return c.json({ status: ok ? "ok" : "unavailable", database: database.engine }, ok ? 200 : 503, {
      "Cache-Control": "no-store",
    });
  });
  api.route("/catalogue", catalogueRoutes(catalogue, config.PUBLIC_URL));
  api.all("*", (c) => {
    throw new HttpError(c.req.method === "GET" ? 404 : 405, `No API endpoint ${c.req.method} ${c.req.path}.`);
  });
  app.route("/api", api);

  // --- Images and built assets -------------------------------------------------------------
  if (catalogue instanceof EmbeddedCatalogue) {
    app.get(`${PRODUCT_IMAGE_PATH}:file`, (c) => {
      const image = catalogue.images.get(c.req.param("file"));
      if (!image) return c.text("Not found", 404);
      c.header("ETag", image.etag);
      if (c.req.header("if-none-match") === image.etag) return c.body(null, 304);
      return c.body(new Uint8Array(image.body), 200, {
        "Content-Type": "image/svg+xml",
        "Cache-Control": IMMUTABLE,
      });
    });
  }

  if (clientDir) {
    const files = serveStatic({
      root: path.relative(process.cwd(), clientDir) || ".",
      onFound: (file, c) => {
        // Vite puts a content hash in every name under assets/; the rest (favicon...) may change.
        c.header("Cache-Control", file.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : "public, max-age=3600");
      },
    });
    // Only paths that name a file touch the disk; pages go straight to the renderer.
    app.use("*", (c, next) => (/\.\w+$/.test(c.req.path) ? files(c, next) : next()));
  }

  // --- Pages -------------------------------------------------------------------------------
  if (ssr) {
    app.all("*", (c) => ssr(c.req.raw, { catalogue, log, publicUrl: config.PUBLIC_URL, cspNonce: c.get("secureHeadersNonce") ?? "" }));
  }

  return app;
}
