import http from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";

type FetchHandler = Parameters<typeof getRequestListener>[0];

/** Serves `fetch` (an app's) over real HTTP on 127.0.0.1, as main.ts does. */
export async function listen(fetch: FetchHandler): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(getRequestListener(fetch));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
