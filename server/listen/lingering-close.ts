import http from "node:http";

/** How long an answer given before its request's body was read waits for the rest of that body. */
export const LINGER_MS = 5_000;

/**
 * Lingering close, as nginx and Apache do it, through node:http's documented extension point (the
 * `ServerResponse` option of `http.createServer`). The shop answers some requests before it has
 * read their bodies: a body over the limit gets its 413 from the Content-Length alone. When that
 * connection is then closed (the client asked for `Connection: close`), node:http closes the
 * socket as soon as the answer is written, with the rest of the body still arriving: the kernel
 * answers those bytes with a reset, and a client still sending its body gets the reset instead of
 * the answer (bench/faults saw 1 such request in 1,102; by hand, 47 in 300 two-megabyte posts).
 *
 * Here such an answer is written at once (whole, when it states its length, as the shop's answers
 * do), but the response is ended, which lets node:http close the connection, only once the rest of
 * the request's body has been read (and discarded), or after `lingerMs`. An answer to a request
 * read whole ends as before.
 */
export function lingeringResponses(lingerMs = LINGER_MS) {
  return class LingeringResponse extends http.ServerResponse {
    override end(chunk?: unknown, encoding?: unknown, callback?: unknown): this {
      const request = this.req;
      if (request.complete || request.destroyed) return super.end(chunk, encoding as BufferEncoding, callback as () => void);
      // end(callback) and end(chunk, callback) as well as end(chunk, encoding, callback).
      const done = [chunk, encoding, callback].find((argument): argument is () => void => typeof argument === "function");
      if (typeof chunk === "string" || chunk instanceof Uint8Array) {
        const encoded = typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8") : chunk;
        // Its length stated, as end(chunk) would: the client has the whole answer without waiting for the end.
        if (!this.headersSent && !this.hasHeader("content-length")) this.setHeader("content-length", Buffer.byteLength(encoded));
        this.write(encoded);
      }
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearTimeout(cutOff);
        super.end(done);
      };
      const cutOff = setTimeout(end, lingerMs);
      request.once("end", end).once("close", end).resume();
      return this;
    }
  };
}
