import { Hono } from "hono";
import { HttpError } from "../http-error.ts";
import { PLACEHOLDER_SVG } from "./placeholder.ts";
import type { ImageProxy } from "./proxy.ts";
import { CONTENT_TYPE, type ImageFormat } from "./resize.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";

/** WebP where the client says it takes it (every current browser does), JPEG otherwise. */
function negotiate(accept: string | undefined): ImageFormat {
  return accept?.includes("image/webp") ? "webp" : "jpeg";
}

/**
 * The image proxy's routes, mounted at /images/remote. A path names an image for good (the source URL
 * and a width), so a found image is cached as immutable; the format follows the Accept header, hence
 * `Vary: Accept`. Product images are public: other sites (FakeStore clients) may embed and read them,
 * so the answers carry `Cross-Origin-Resource-Policy: cross-origin` (instead of the site-wide
 * same-origin) and `Access-Control-Allow-Origin: *`.
 */
export function imageRoutes(proxy: ImageProxy): Hono {
  const routes = new Hono();

  routes.use("*", async (c, next) => {
    await next();
    c.header("Cross-Origin-Resource-Policy", "cross-origin");
    c.header("Access-Control-Allow-Origin", "*");
  });

  routes.get("/placeholder.svg", (c) =>
    c.body(PLACEHOLDER_SVG, 200, { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=86400" }),
  );

  routes.get("/:key/:width", async (c) => {
    const format = negotiate(c.req.header("accept"));
    const answer = await proxy.image(c.req.param("key"), c.req.param("width"), format);
    if (answer.ok) {
      return c.body(new Uint8Array(answer.body), 200, { "Content-Type": CONTENT_TYPE[format], "Cache-Control": IMMUTABLE, Vary: "Accept" });
    }
    if (answer.refused) throw new HttpError(answer.status, answer.message);
    // The source host failed: the placeholder, for a short while only, so the real image follows
    // once the host is back.
    return c.body(PLACEHOLDER_SVG, 503, {
      "Content-Type": "image/svg+xml",
      "Cache-Control": "public, max-age=60",
      "Retry-After": "60",
    });
  });

  return routes;
}
