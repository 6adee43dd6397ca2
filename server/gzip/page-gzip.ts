import { constants, crc32, deflateRawSync } from "node:zlib";
import { GZIP_HEADER, crcCombine, crcShift, gzipTrailer } from "./gzip-member.ts";

const STYLE_OPEN = Buffer.from("<style");
const STYLE_CLOSE = Buffer.from("</style>");
const TAG_END = 0x3e; // ">"
/** A smaller stylesheet is not worth a piece of its own. */
const MIN_STYLESHEET = 2048;
/**
 * The level for each page's own text: zlib's levels 1-3 skip the lazy match search of 4-9. On a
 * product page's 12 KB of its own text, level 3 deflates in about 70 µs against 97 µs at the
 * default 6, for 150 bytes more (4,148 against 3,996; docs/BENCHMARKS.md).
 */
const PAGE_LEVEL = 3;
/** Stylesheets kept compressed: the shop has one; a few more cover a deploy's old and new build. */
const MAX_KEPT = 4;
/** Raw deflate at the pages' level, ended by `finishFlush` (Z_SYNC_FLUSH: byte-aligned and not final, so a piece can follow). */
const deflatePageText = (text: Uint8Array, finishFlush: number) => deflateRawSync(text, { level: PAGE_LEVEL, finishFlush });

interface Stylesheet {
  plain: Buffer;
  deflated: Buffer;
  crc: number;
  /** The operator that moves a CRC past the stylesheet (gzip-member.ts). */
  shift: number;
}

/** Compressed stylesheets by length (a length's candidates are compared byte for byte). */
const kept = new Map<number, Stylesheet[]>();
let keptCount = 0;

/**
 * A whole page gzipped, its inline stylesheet compressed once for all pages. Every page carries
 * the shop's whole stylesheet in its head (app/styles.server.ts: about 20 KB of a product page's
 * 33), the same bytes each time, and compressing them again was most of a rendered page's
 * compression (0.3 of 0.4 ms). The stylesheet is deflated once, at the best level, ending
 * byte-aligned; each page's text before and after it is deflated on its own, and the three are
 * laid side by side as one deflate stream, the gzip trailer's CRC-32 combined from theirs.
 */
export function gzipPage(page: Buffer): Buffer {
  const open = page.indexOf(STYLE_OPEN);
  const start = open < 0 ? -1 : page.indexOf(TAG_END, open) + 1;
  const end = start > 0 ? page.indexOf(STYLE_CLOSE, start) : -1;
  if (end - start < MIN_STYLESHEET) return gzipWhole(page);
  const stylesheet = compressedStylesheet(page.subarray(start, end));
  const before = page.subarray(0, start);
  const after = page.subarray(end);
  const crc = crc32(after, crcCombine(crc32(before), stylesheet.crc, stylesheet.shift));
  return Buffer.concat([
    GZIP_HEADER,
    // Byte-aligned and not final, so the next piece can follow; the last one ends the stream.
    deflatePageText(before, constants.Z_SYNC_FLUSH),
    stylesheet.deflated,
    deflatePageText(after, constants.Z_FINISH),
    gzipTrailer(crc, page.length),
  ]);
}

/**
 * Any other whole answer gzipped (React Router's data, JSON), at the pages' level rather than the
 * default 6: on the orders page's data (7 KB) about half the time, for 500 bytes against 449
 * (docs/BENCHMARKS.md).
 */
export function gzipWhole(body: Uint8Array): Buffer {
  return Buffer.concat([GZIP_HEADER, deflatePageText(body, constants.Z_FINISH), gzipTrailer(crc32(body), body.byteLength)]);
}

function compressedStylesheet(plain: Buffer): Stylesheet {
  const candidates = kept.get(plain.length) ?? [];
  const found = candidates.find((stylesheet) => stylesheet.plain.equals(plain));
  if (found) return found;
  if (keptCount >= MAX_KEPT) {
    kept.clear();
    keptCount = 0;
  }
  const copy = Buffer.from(plain);
  const stylesheet = {
    plain: copy,
    deflated: deflateRawSync(copy, { level: constants.Z_BEST_COMPRESSION, finishFlush: constants.Z_SYNC_FLUSH }),
    crc: crc32(copy),
    shift: crcShift(copy.length),
  };
  kept.set(plain.length, [...(kept.get(plain.length) ?? []), stylesheet]);
  keptCount++;
  return stylesheet;
}
