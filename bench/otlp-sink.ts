// An OTLP/HTTP (protobuf or JSON) receiver that takes every export and throws it away: the far end of the
// shop's tracing in bench/http.ts, in a process of its own so that it costs the shop nothing.
// It counts the server spans it was sent (GET /server-spans), so that the bench can check that
// every request had its span. Prints its address as the first line of stdout.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A server span's kind as OTLP/JSON writes it (SPAN_KIND_SERVER). */
const SERVER_KIND = Buffer.from('"kind":2,');

/** Reads a varint at `at` of `bytes`: its value (below 2^32 here: keys and lengths) and where it ends. */
function varint(bytes: Buffer, at: number): [number, number] {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = bytes[at++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, at];
  }
}

/**
 * Calls `each` with the start and end of every length-delimited field numbered `field` in
 * bytes[from, to), skipping the rest (varints, fixed64, fixed32) without reading them.
 */
function forEachField(bytes: Buffer, from: number, to: number, field: number, each: (start: number, end: number) => void): void {
  for (let at = from; at < to; ) {
    const [key, next] = varint(bytes, at);
    at = next;
    const wire = key & 7;
    if (wire === 0) at = varint(bytes, at)[1];
    else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else {
      const [length, start] = varint(bytes, at);
      at = start + length;
      if (key >>> 3 === field) each(start, at);
    }
  }
}

/** SPAN_KIND_SERVER as a protobuf span holds it: field 6 (kind), varint 2. */
const SERVER_KIND_KEY = (6 << 3) | 0;

/** Server spans in a protobuf export request (resource_spans 1 > scope_spans 2 > spans 2), walked, not decoded. */
function protobufServerSpans(body: Buffer): number {
  let count = 0;
  forEachField(body, 0, body.length, 1, (resourceStart, resourceEnd) =>
    forEachField(body, resourceStart, resourceEnd, 2, (scopeStart, scopeEnd) =>
      forEachField(body, scopeStart, scopeEnd, 2, (spanStart, spanEnd) => {
        for (let at = spanStart; at < spanEnd; ) {
          const [key, next] = varint(body, at);
          if (key === SERVER_KIND_KEY) {
            if (body[next] === 2) count++;
            return;
          }
          const wire = key & 7;
          at = wire === 0 ? varint(body, next)[1] : wire === 1 ? next + 8 : wire === 5 ? next + 4 : varint(body, next)[1] + varint(body, next)[0];
        }
      }),
    ),
  );
  return count;
}

/** How often `needle` occurs in `haystack` (a search, not a parse: it costs the sink little). */
function occurrences(haystack: Buffer, needle: Buffer): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

let exports = 0;
let serverSpans = 0;
const server = http.createServer((req, res) => {
  if (req.method === "GET" && req.url === "/server-spans") return void res.writeHead(200, { "content-type": "text/plain" }).end(String(serverSpans));
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    exports++;
    const body = Buffer.concat(chunks);
    serverSpans += req.headers["content-type"] === "application/x-protobuf" ? protobufServerSpans(body) : occurrences(body, SERVER_KIND);
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on("SIGTERM", () => {
  console.error(`otlp sink: ${exports} exports received, ${serverSpans} server spans`);
  process.exit(0);
});
