// An OTLP/HTTP (protobuf or JSON) receiver that takes every export and throws it away: the far end of the
// shop's tracing in bench/http.ts, in a process of its own so that it costs the shop nothing.
// It counts the server spans it was sent (GET /server-spans), so that the bench can check that
// every request had its span. Prints its address as the first line of stdout.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A server span's kind as OTLP/JSON writes it (SPAN_KIND_SERVER). */
const SERVER_KIND = Buffer.from('"kind":2,');

/** Reads a varint at `at` of `bytes`: its value (below 2^32 here: keys, lengths, enums) and where it ends. */
function varint(bytes: Buffer, at: number): [number, number] {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = bytes[at++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, at];
  }
}

/**
 * Calls `each` with the number, wire type and place of every field in bytes[from, to): for a
 * length-delimited field its content's start and end, for a varint where it starts.
 */
function forEachField(bytes: Buffer, from: number, to: number, each: (field: number, wire: number, start: number, end: number) => void): void {
  for (let at = from; at < to; ) {
    const [key, start] = varint(bytes, at);
    const wire = key & 7;
    let end = start;
    if (wire === 0) end = varint(bytes, start)[1];
    else if (wire === 1) end = start + 8;
    else if (wire === 5) end = start + 4;
    else {
      const [length, content] = varint(bytes, start);
      each(key >>> 3, wire, content, (at = content + length));
      continue;
    }
    each(key >>> 3, wire, start, end);
    at = end;
  }
}

const LENGTH_DELIMITED = 2;
/** Where spans sit in an export request: resource_spans 1 > scope_spans 2 > spans 2. */
const SPANS_PATH = [1, 2, 2];

/** Server spans (kind, field 6, = 2) in a protobuf export request, walked, not decoded. */
function protobufServerSpans(body: Buffer): number {
  let count = 0;
  const visit = (depth: number) => (field: number, wire: number, start: number, end: number) => {
    if (depth === SPANS_PATH.length) {
      if (field === 6 && wire === 0 && body[start] === 2) count++;
    } else if (field === SPANS_PATH[depth] && wire === LENGTH_DELIMITED) forEachField(body, start, end, visit(depth + 1));
  };
  forEachField(body, 0, body.length, visit(0));
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
