import type { ImageRequest, ImageSource } from "../catalogue/catalogue.ts";
import { HttpError } from "../http-error.ts";
import { PLACEHOLDER_SVG } from "./placeholder.ts";
import { type ImageProxy, REMOTE_IMAGE_PATH } from "./proxy.ts";
import { CONTENT_TYPE, type ImageFormat } from "./resize.ts";

const IMMUTABLE = "public, max-age=31536000, immutable";
const SVG = "image/svg+xml";

/** WebP where the client says it takes it (every current browser does), JPEG otherwise. */
function negotiate(accept: string | undefined): ImageFormat {
  return accept?.includes("image/webp") ? "webp" : "jpeg";
}

/**
 * The remote catalogue's pictures, through the image proxy, under /images/remote/. A path names an
 * image for good (the source URL's key and a width), so a found image is cached as immutable; the
 * format follows the Accept header, hence `Vary: Accept`.
 */
export function proxyImages(proxy: ImageProxy): ImageSource {
  return {
    basePath: REMOTE_IMAGE_PATH,
    async serve(path: string, request: ImageRequest): Promise<Response> {
      if (path === "placeholder.svg") return new Response(PLACEHOLDER_SVG, { headers: { "Content-Type": SVG, "Cache-Control": "public, max-age=86400" } });
      const match = /^([^/]+)\/([^/]+)$/.exec(path);
      if (!match) throw new HttpError(404, "No such image.");
      const format = negotiate(request.accept);
      const answer = await proxy.image(match[1]!, match[2]!, format);
      if (answer.ok) {
        return new Response(new Uint8Array(answer.body), { headers: { "Content-Type": CONTENT_TYPE[format], "Cache-Control": IMMUTABLE, Vary: "Accept" } });
      }
      if (answer.refused) throw new HttpError(answer.status, answer.message);
      // The source host failed: the placeholder, for a short while only, so the real image follows
      // once the host is back.
      return new Response(PLACEHOLDER_SVG, { status: 503, headers: { "Content-Type": SVG, "Cache-Control": "public, max-age=60", "Retry-After": "60" } });
    },
  };
}
