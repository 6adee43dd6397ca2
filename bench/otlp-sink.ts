// An OTLP/HTTP (JSON) receiver that takes every export and throws it away: the far end of the
// shop's tracing in bench/http.ts, in a process of its own so that it costs the shop nothing.
// It counts the server spans it was sent (GET /server-spans), so that the bench can check that
// every request had its span. Prints its address as the first line of stdout.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A server span's kind as OTLP/JSON writes it (SPAN_KIND_SERVER). */
const SERVER_KIND = Buffer.from('"kind":2,');

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
    serverSpans += occurrences(Buffer.concat(chunks), SERVER_KIND);
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on("SIGTERM", () => {
  console.error(`otlp sink: ${exports} exports received, ${serverSpans} server spans`);
  process.exit(0);
});
