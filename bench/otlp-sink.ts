// An OTLP/HTTP receiver that takes every export and throws it away: the far end of the shop's
// tracing in bench/http.ts, in a process of its own so that it costs the shop nothing.
// Prints its address as the first line of stdout.
import http from "node:http";
import type { AddressInfo } from "node:net";

let exports = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    exports++;
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on("SIGTERM", () => {
  console.error(`otlp sink: ${exports} exports received`);
  process.exit(0);
});
