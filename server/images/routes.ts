import type { Hono } from "hono";
import type { ImageSource } from "../catalogue/catalogue.ts";
import type { AppEnv } from "../http/env.ts";

/**
 * The catalogue's product pictures under its image source's path. They are public: other sites
 * (FakeStore clients) may embed and read them, so the answers carry
 * `Cross-Origin-Resource-Policy: cross-origin` (instead of the site-wide same-origin) and
 * `Access-Control-Allow-Origin: *`.
 */
export function mountImages(app: Hono<AppEnv>, images: ImageSource): void {
  app.get(`${images.basePath}*`, async (c, next) => {
    await next();
    c.header("Cross-Origin-Resource-Policy", "cross-origin");
    c.header("Access-Control-Allow-Origin", "*");
  });
  app.get(`${images.basePath}*`, (c) =>
    images.serve(c.req.path.slice(images.basePath.length), { accept: c.req.header("accept"), ifNoneMatch: c.req.header("if-none-match") }),
  );
}
