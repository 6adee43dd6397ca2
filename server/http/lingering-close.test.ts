import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { lingerOnUnreadBodies } from "./lingering-close.ts";

// The shop itself answering 413s to clients still sending: lingering-close.integration.test.ts.

let running: http.Server | undefined;
afterEach(() => {
  running?.closeAllConnections();
  running?.close();
});

/** A server that refuses bodies unread (413), and reads them on /read; lingering for 1 s. */
async function lingeringServer(): Promise<number> {
  const server = http.createServer((request, response) => {
    if (request.url === "/read") {
      request.resume();
      request.on("end", () => response.end("read"));
    } else response.writeHead(413).end("The request body is too large.");
  });
  (server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  lingerOnUnreadBodies(server, 1_000);
  running = server;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

const connections = () => new Promise<number>((resolve, reject) => running!.getConnections((error, count) => (error ? reject(error) : resolve(count))));

/** Sends `request` on a connection that never closes its side; the answer once it has come whole. */
async function send(port: number, request: string): Promise<string> {
  const socket = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true }, () => socket.write(request));
  socket.on("error", () => {});
  let text = "";
  socket.on("data", (chunk) => (text += chunk.toString()));
  await new Promise((resolve) => socket.on("end", resolve));
  return text;
}

describe("lingering close", () => {
  it("closes at once a connection whose request was read whole", async () => {
    const port = await lingeringServer();
    const answer = await send(port, "POST /read HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\nconnection: close\r\n\r\nsmall");
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await connections()).toBe(0);
  });

  it("goes on reading a refused body after the answer, and cuts off a client that never ends it", async () => {
    const port = await lingeringServer();
    const sockets: net.Socket[] = [];
    running!.on("connection", (socket: net.Socket) => sockets.push(socket));
    const started = performance.now();
    const answer = await send(port, "POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 2000000\r\nconnection: close\r\n\r\nxxxx");
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(await connections()).toBe(1);
    // A second close on the way (as @hono/node-server's, when it stops draining a body) does not cut the linger short.
    (sockets[0] as net.Socket & { destroySoon(): void }).destroySoon();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await connections()).toBe(1);
    while ((await connections()) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(performance.now() - started).toBeGreaterThan(900);
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});
