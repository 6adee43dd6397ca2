import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../../test/support/server-process.ts";

let server: RunningServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-linger-"));
  server = await startServer({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const BODY = "x".repeat(2_000_000);

/** Posts a body over the limit by hand, whole and with `Connection: close`: the answer's status, "none" for a reset. */
function postTooLarge(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () =>
      socket.end(`POST /api/payment/confirm HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${BODY.length}\r\nconnection: close\r\n\r\n${BODY}`),
    );
    let text = "";
    socket.on("data", (chunk) => (text += chunk.toString()));
    socket.on("error", () => {});
    socket.on("close", () => resolve(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? "none"));
  });
}

describe("a body over the limit, refused before it is read", () => {
  // Without lingering close about one in six of these met a reset instead of the answer (the client
  // still sending when the shop closed the socket): bench/faults counted one as a failure.
  it("gets its 413 to a client still sending it, every time", async () => {
    const port = Number(new URL(server.url).port);
    const statuses: string[] = [];
    for (let i = 0; i < 150; i++) statuses.push(await postTooLarge(port));
    expect(statuses.filter((status) => status !== "413")).toEqual([]);
  }, 60_000);
});
