/**
 * An answer's body as pieces sent one after another (node:http writes them in one system call): a
 * kept page's parts go out as they are kept, with each response's few bytes between them. Joining
 * them into one array per response cost more than the rest of a cached page together: a new
 * off-heap array of the page's size per response, whose memory made V8 run a full garbage
 * collection every few hundred milliseconds under load. Kept pages (page-cache/spliced-gzip.ts)
 * answer in pieces; the catalogue API's prepared answers are one piece.
 */
export type Pieces = readonly Uint8Array[];

/** An answer made before it is asked for (a prepared API answer, a kept page), as node:http writes it. */
export interface ReadyAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body's pieces, written as they are (a kept page's parts are not copied per response). */
  body: Pieces | null;
}

/** The bytes of `pieces` in one array (for a Response, whose body is one). */
export function joined(pieces: Pieces): Uint8Array<ArrayBuffer> {
  const only = pieces.length === 1 ? pieces[0]! : null;
  if (only?.buffer instanceof ArrayBuffer) return only as Uint8Array<ArrayBuffer>;
  const out = new Uint8Array(byteLength(pieces));
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/** The bytes of `pieces` together (a response's Content-Length). */
export function byteLength(pieces: Pieces): number {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  return length;
}
