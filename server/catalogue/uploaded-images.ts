import { createHash } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Schema } from "../db/schema.ts";
import { HttpError } from "../http-error.ts";
import { PLACEHOLDER_SVG } from "../images/placeholder.ts";
import { CONTENT_TYPE, IMAGE_WIDTHS, type ImageFormat, renderImage, sourceFormat } from "../images/resize.ts";
import type { ImageRequest } from "./catalogue.ts";

/** How `products.image` names an uploaded picture: this prefix and the picture's id. */
export const UPLOADED = "upload:";
/** Under the catalogue's image path (…/uploads/<id>/<width>, and the placeholder of a product without a picture). */
export const UPLOADS_DIR = "uploads/";
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
const ACCEPTED = new Set(["png", "jpeg", "webp"]);
const FORMATS: ImageFormat[] = ["webp", "jpeg"];
const DEFAULT_WIDTH = 480;
const IMMUTABLE = "public, max-age=31536000, immutable";
/** Renditions kept in memory per process (they never change once stored). */
const MEMORY_BYTES = 16 * 1024 * 1024;

export type Rendered = { ok: true; imageId: string; renditions: Array<{ width: number; format: ImageFormat; body: Buffer }> };
export type UploadRefused = { ok: false; status: 413 | 415 | 422; message: string };

/**
 * Pictures uploaded in the back office: checked by their content (PNG, JPEG or WebP, at most
 * 5 MB, whatever the client called them, and decoding whole), re-encoded by sharp at the widths
 * and in the formats the remote images use (EXIF orientation applied, metadata dropped), and kept
 * in the database, so every instance serves every picture from our origin, as immutable as the
 * drawings.
 */
export class UploadedImages {
  private readonly memory = new Map<string, Buffer>();
  private memoryBytes = 0;

  constructor(private readonly db: Kysely<Schema>) {}

  /** Renders an upload (outside any transaction: sharp takes a while); a refusal for anything else. */
  async render(bytes: Uint8Array): Promise<Rendered | UploadRefused> {
    if (bytes.byteLength > MAX_UPLOAD_BYTES) return { ok: false, status: 413, message: "The image is larger than 5 MB." };
    const format = await sourceFormat(bytes);
    if (!format || !ACCEPTED.has(format)) return { ok: false, status: 415, message: "The image must be a PNG, JPEG or WebP file." };
    const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const imageId = createHash("sha256").update(source).digest("hex").slice(0, 32);
    const renditions = [];
    try {
      for (const width of IMAGE_WIDTHS) for (const f of FORMATS) renditions.push({ width, format: f, body: await renderImage(source, width, f) });
    } catch {
      // Its header says PNG, JPEG or WebP, but the picture itself does not decode (cut short, or damaged).
      return { ok: false, status: 422, message: "The image could not be read: the file is damaged or incomplete." };
    }
    return { ok: true, imageId, renditions };
  }

  /** Stores the renditions in the write's transaction (the same picture twice is stored once). */
  async store(trx: Transaction<Schema>, { imageId, renditions }: Rendered, now: number): Promise<void> {
    await trx
      .insertInto("product_images")
      .values(renditions.map((r) => ({ image_id: imageId, width: r.width, format: r.format, body: r.body.toString("base64"), created: now })))
      .onConflict((oc) => oc.columns(["image_id", "width", "format"]).doNothing())
      .execute();
  }

  /** The addresses of `products.image` when it names an upload (or is empty: the placeholder); null otherwise. */
  link(image: string, basePath: string): { image: string; imageSrcSet?: string } | null {
    if (image === "") return { image: `${basePath}${UPLOADS_DIR}placeholder.svg` };
    if (!image.startsWith(UPLOADED)) return null;
    const at = (width: number) => `${basePath}${UPLOADS_DIR}${image.slice(UPLOADED.length)}/${width}`;
    return { image: at(DEFAULT_WIDTH), imageSrcSet: IMAGE_WIDTHS.map((width) => `${at(width)} ${width}w`).join(", ") };
  }

  /** The answer for `path` below …/uploads/: a rendition in the format the client takes, or the placeholder. */
  async serve(path: string, request: ImageRequest): Promise<Response> {
    if (path === "placeholder.svg") return new Response(PLACEHOLDER_SVG, { headers: { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=86400" } });
    const match = /^([0-9a-f]{32})\/(\d{1,4})$/.exec(path);
    if (!match) throw new HttpError(404, "No such image.");
    const format: ImageFormat = request.accept?.includes("image/webp") ? "webp" : "jpeg";
    const body = await this.read(match[1]!, Number(match[2]), format);
    if (!body) throw new HttpError(404, "No such image.");
    return new Response(new Uint8Array(body), { headers: { "Content-Type": CONTENT_TYPE[format], "Cache-Control": IMMUTABLE, Vary: "Accept" } });
  }

  private async read(imageId: string, width: number, format: ImageFormat): Promise<Buffer | null> {
    const key = `${imageId}/${width}.${format}`;
    const kept = this.memory.get(key);
    if (kept) return kept;
    const row = await this.db.selectFrom("product_images").select("body").where("image_id", "=", imageId).where("width", "=", width).where("format", "=", format).executeTakeFirst();
    if (!row) return null;
    const body = Buffer.from(row.body, "base64");
    if (this.memoryBytes + body.byteLength > MEMORY_BYTES) {
      this.memory.clear();
      this.memoryBytes = 0;
    }
    this.memory.set(key, body);
    this.memoryBytes += body.byteLength;
    return body;
  }
}
