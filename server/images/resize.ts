import os from "node:os";
import type { Sharp, SharpOptions } from "sharp";

/** The widths we make of each remote image: a card (up to 220 CSS px) at 1× and 2×, the product page at 2×. */
export const IMAGE_WIDTHS = [240, 480, 960] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/**
 * WebP for every browser that says it takes it, JPEG for the rest. Not AVIF: measured here it
 * takes about eight times as long to encode as WebP for a quarter fewer bytes at these sizes, and
 * the first visit after a catalogue change encodes every image on the page.
 */
export type ImageFormat = "webp" | "jpeg";
export const CONTENT_TYPE: Record<ImageFormat, string> = { webp: "image/webp", jpeg: "image/jpeg" };

// A decompression bomb (a tiny file that decodes to gigapixels) is refused before it is decoded.
const MAX_INPUT_PIXELS = 40_000_000;

let loaded: Promise<(input: Buffer, options: SharpOptions) => Sharp> | null = null;

/** sharp (libvips, about 20 MB) is loaded on the first image: a shop without remote images never needs it. */
function sharp(input: Buffer, options: SharpOptions): Promise<Sharp> {
  loaded ??= import("sharp").then(({ default: library }) => {
    // The results are cached on disk; libvips' own cache would only hold decoded images in memory.
    library.cache(false);
    // One thread per image, and at most half the cores resizing at once: a page's first visit asks
    // for all its images together, and the pages themselves must still render at once meanwhile.
    library.concurrency(1);
    return library;
  });
  return loaded.then((library) => library(input, options));
}
const MAX_RENDERS = Math.max(1, Math.floor(os.availableParallelism() / 2));
let running = 0;
const waiting: Array<() => void> = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_RENDERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/** Does this decode as an image we can resize? (Checked once, before a source is kept.) */
export async function isDecodableImage(source: Buffer): Promise<boolean> {
  try {
    const { width, height } = await (await sharp(source, { limitInputPixels: MAX_INPUT_PIXELS })).metadata();
    return width > 0 && height > 0;
  } catch {
    return false;
  }
}

/** The format sharp reads in the bytes themselves ("png", "jpeg", "webp", ...), or null when they are no image it can read. */
export async function sourceFormat(source: Uint8Array): Promise<string | null> {
  try {
    const { format, width, height } = await (await sharp(Buffer.from(source.buffer, source.byteOffset, source.byteLength), { limitInputPixels: MAX_INPUT_PIXELS })).metadata();
    return width > 0 && height > 0 ? format : null;
  } catch {
    return null;
  }
}

/**
 * The source fitted inside a width × width square (never enlarged), the right way up (EXIF
 * orientation applied), without metadata. JPEG has no transparency: transparent parts become white,
 * the card's own background.
 */
export function renderImage(source: Buffer, width: ImageWidth, format: ImageFormat): Promise<Buffer> {
  return limited(async () => {
    const image = (await sharp(source, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" }))
      .autoOrient()
      .resize({ width, height: width, fit: "inside", withoutEnlargement: true });
    return format === "webp"
      ? image.webp({ quality: 75 }).toBuffer()
      : image.flatten({ background: "#ffffff" }).jpeg({ quality: 78, mozjpeg: true }).toBuffer();
  });
}
