import { Transform } from "node:stream";

const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*\/>/g;
const HEAD_END = "</head>";

/**
 * Passes the rendered document through without React Router's <link rel="modulepreload"> tags,
 * which React hoists into the head. With them, the ~100 KB of hydration code was fetched at high
 * priority before the page's own content and pictures were even parsed, sharing the network with
 * the first paint and the largest picture. Without them the same modules load as the document's
 * closing script imports them: the page paints first and hydrates a moment later.
 * Only the head is rewritten: it is held until it is complete (a few KB, sent at once anyway);
 * the body streams through untouched.
 */
export function withoutModulePreloads(): Transform {
  let head: Buffer | null = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Uint8Array, _encoding, done) {
      if (head === null) return done(null, chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf(HEAD_END);
      if (end < 0) return done();
      const kept = head.subarray(0, end).toString("utf8").replace(MODULE_PRELOAD, "");
      const rest = head.subarray(end);
      head = null;
      done(null, Buffer.concat([Buffer.from(kept), rest]));
    },
    flush(done) {
      done(null, head?.length ? head : undefined);
    },
  });
}
