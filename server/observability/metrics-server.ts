import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * GET /metrics on a listener of its own (METRICS_HOST:METRICS_PORT, 127.0.0.1 by default): never
 * on the shop's port, so nothing behind the public proxy can read it.
 */
export async function serveMetrics(registry: Registry, host: string, port: number): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics") return res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found: metrics are at /metrics\n");
    if (req.method !== "GET" && req.method !== "HEAD") return res.writeHead(405, { Allow: "GET, HEAD" }).end();
    registry.metrics().then(
      (text) => res.writeHead(200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" }).end(req.method === "HEAD" ? undefined : text),
      (error: unknown) => res.writeHead(500, { "Content-Type": "text/plain" }).end(`metrics failed: ${String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/metrics`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
