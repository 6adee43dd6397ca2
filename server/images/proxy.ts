import { createHash } from "node:crypto";
import type { Logger } from "../log.ts";
import { noTelemetry, type Telemetry } from "../observability/port.ts";
import { DiskCache } from "./disk-cache.ts";
import { fetchImageSource } from "./fetch.ts";
import { IMAGE_WIDTHS, type ImageFormat, type ImageWidth, isDecodableImage, renderImage } from "./resize.ts";

/** Where the pages load remote product images from, on our own origin. */
export const REMOTE_IMAGE_PATH = "/images/remote/";
export const PLACEHOLDER_PATH = `${REMOTE_IMAGE_PATH}placeholder.svg`;
/** The width a product's plain `image` URL names: a card at 2×, and big enough for structured data. */
const DEFAULT_WIDTH: ImageWidth = 480;
const MAX_SOURCE_BYTES = 15 * 1024 * 1024;
const MAX_KEY_LENGTH = 2_800; // base64url of a 2,000-character URL, with room to spare

export interface ImageProxyOptions {
  /** Origins images may be fetched from: the catalogue host's and CATALOGUE_IMAGE_ORIGINS. */
  allowedOrigins: readonly string[];
  /** Where the fetched sources and the resized images are kept (under DATA_DIR). */
  cacheDir: string;
  maxCacheBytes: number;
  timeoutMs: number;
  log: Logger;
  /** How long an image that could not be fetched is not asked for again. */
  retryAfterMs?: number;
  /**
   * Tests only: let the proxy connect to loopback and private addresses, where the test image hosts
   * listen. Nothing in the configuration sets it: in production such addresses are always refused.
   */
  allowPrivateAddresses?: boolean;
  now?: () => number;
  /** Source fetches are counted by outcome and traced. */
  telemetry?: Pick<Telemetry, "trace" | "imageFetched">;
}

/** The paths a product carries for its image: `image` for a plain <img src>, `imageSrcSet` for srcset. */
export interface LinkedImage {
  image: string;
  imageSrcSet: string;
}

export type ImageAnswer =
  | { ok: true; body: Buffer }
  /** The request names nothing we would fetch: answered with this 4xx. */
  | { ok: false; refused: true; status: 403 | 404; message: string }
  /** A fine request, but the image could not be had: the placeholder stands in. */
  | { ok: false; refused: false; reason: string };

/**
 * Remote product images through our own origin. A product's image URL becomes a path naming that
 * URL (base64url) and a width; a request for it fetches the source once (only from an allowed
 * origin, never from a non-public address, at most 15 MB), keeps it on disk, and makes each width
 * and format from it once with sharp. Requests for one image at the same time share one fetch.
 */
export class ImageProxy {
  readonly allowedOrigins: ReadonlySet<string>;
  private readonly cache: DiskCache;
  private readonly now: () => number;
  private readonly inFlight = new Map<string, Promise<ImageAnswer>>();
  /** Sources that failed, and until when they are not asked for again (a host that is down is not hammered). */
  private readonly failed = new Map<string, { until: number; reason: string }>();
  private cacheBroken = false;

  constructor(private readonly options: ImageProxyOptions) {
    this.allowedOrigins = new Set(options.allowedOrigins.map((origin) => new URL(origin).origin));
    this.cache = new DiskCache({ dir: options.cacheDir, maxBytes: options.maxCacheBytes, log: options.log });
    this.now = options.now ?? Date.now;
  }

  /** Our paths for a remote image, or null when its origin is not allowed (the page shows the placeholder). */
  link(remoteUrl: string): LinkedImage | null {
    const url = parseHttpUrl(remoteUrl);
    if (!url || !this.allowedOrigins.has(url.origin)) return null;
    const key = Buffer.from(url.href).toString("base64url");
    const at = (width: ImageWidth) => `${REMOTE_IMAGE_PATH}${key}/${width}`;
    return { image: at(DEFAULT_WIDTH), imageSrcSet: IMAGE_WIDTHS.map((width) => `${at(width)} ${width}w`).join(", ") };
  }

  /** The image a request path names (`key` and `width` as they came), made in `format`. */
  async image(key: string, width: string, format: ImageFormat): Promise<ImageAnswer> {
    const size = IMAGE_WIDTHS.find((w) => String(w) === width);
    if (size === undefined) return refuse(404, `No image at width ${JSON.stringify(width)}; widths are ${IMAGE_WIDTHS.join(", ")}.`);
    const url = key.length <= MAX_KEY_LENGTH && /^[\w-]+$/.test(key) ? parseHttpUrl(Buffer.from(key, "base64url").toString("utf8")) : null;
    // Only the one spelling link() makes: other spellings of a URL would each fill the cache anew.
    if (!url || Buffer.from(url.href).toString("base64url") !== key) return refuse(404, "No such image.");
    if (!this.allowedOrigins.has(url.origin)) return refuse(403, "Images are served only from the catalogue's own image hosts.");

    const source = hash(url.href);
    const name = `${source}-${size}.${format}`;
    const cached = await this.cacheRead(name);
    if (cached) return { ok: true, body: cached };
    return this.once(name, async () => {
      const original = await this.source(url, source);
      if (!original.ok) return original;
      try {
        const body = await renderImage(original.body, size, format);
        await this.cacheWrite(name, body);
        return { ok: true, body };
      } catch (error) {
        return this.fail(url, `could not be resized: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  }

  /** The source's bytes: from disk, or fetched (once) and kept. */
  private async source(url: URL, source: string): Promise<ImageAnswer> {
    const name = `${source}.source`;
    const cached = await this.cacheRead(name);
    if (cached) return { ok: true, body: cached };
    return this.once(name, async () => {
      const failed = this.failed.get(url.href);
      if (failed && failed.until > this.now()) return { ok: false, refused: false, reason: failed.reason };
      const telemetry = this.options.telemetry ?? noTelemetry;
      const fetched = await telemetry.trace("image fetch", { "server.address": url.host }, () =>
        fetchImageSource(url, {
          timeoutMs: this.options.timeoutMs,
          maxBytes: MAX_SOURCE_BYTES,
          allowPrivateAddresses: this.options.allowPrivateAddresses ?? false,
        }),
      );
      telemetry.imageFetched(fetched.ok ? "ok" : "failed");
      if (!fetched.ok) return this.fail(url, fetched.reason);
      if (!(await isDecodableImage(fetched.body))) return this.fail(url, "not an image we can read");
      this.failed.delete(url.href);
      await this.cacheWrite(name, fetched.body);
      return { ok: true, body: fetched.body };
    });
  }

  private once(name: string, make: () => Promise<ImageAnswer>): Promise<ImageAnswer> {
    let pending = this.inFlight.get(name);
    if (!pending) {
      pending = make().finally(() => this.inFlight.delete(name));
      this.inFlight.set(name, pending);
    }
    return pending;
  }

  private fail(url: URL, reason: string): ImageAnswer {
    this.options.log.warn({ image: url.href, reason }, "product image unavailable; showing a placeholder");
    // Bounded: a long outage of many images must not grow this without end.
    if (this.failed.size >= 10_000) this.failed.clear();
    this.failed.set(url.href, { until: this.now() + (this.options.retryAfterMs ?? 60_000), reason });
    return { ok: false, refused: false, reason };
  }

  // A cache that cannot be read or written (full or read-only disk) costs speed, not images.
  private async cacheRead(name: string): Promise<Buffer | null> {
    try {
      return await this.cache.read(name);
    } catch (error) {
      this.cacheTrouble(error);
      return null;
    }
  }

  private async cacheWrite(name: string, body: Buffer): Promise<void> {
    try {
      await this.cache.write(name, body);
    } catch (error) {
      this.cacheTrouble(error);
    }
  }

  private cacheTrouble(error: unknown): void {
    if (this.cacheBroken) return;
    this.cacheBroken = true;
    this.options.log.error({ dir: this.options.cacheDir, err: error }, "image cache unusable; resizing every request instead");
  }
}

function refuse(status: 403 | 404, message: string): ImageAnswer {
  return { ok: false, refused: true, status, message };
}

function hash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 32);
}

function parseHttpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}
