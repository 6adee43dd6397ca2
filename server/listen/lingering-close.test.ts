import http from "node:http";
import net from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { eventually } from "../../test/support/poll.ts";
import { lingeringResponses } from "./lingering-close.ts";

// The shop itself answering 413s to clients still sending: lingering-close.integration.test.ts.

// The linger is a timer (setTimeout) that the test's fake clock holds: a connection ended while
// that timer is still pending was ended by its body, not by the linger; the sockets stay real.
const LINGER_MS = 1_000;

let running: http.Server | undefined;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
  running?.closeAllConnections();
  running?.close();
});

const REFUSAL = "The request body is too large.";

/** A server that refuses bodies unread (413), and reads them on /read; lingering for LINGER_MS. */
async function lingeringServer(): Promise<number> {
  const server = http.createServer({ ServerResponse: lingeringResponses(LINGER_MS) }, (request, response) => {
    if (request.url === "/read") {
      request.resume();
      request.on("end", () => response.end("read"));
    } else if (request.url === "/stated") response.writeHead(413, { "content-length": REFUSAL.length }).end(REFUSAL);
    else {
      response.statusCode = 413;
      response.end(REFUSAL);
    }
  });
  running = server;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

const connections = () => new Promise<number>((resolve, reject) => running!.getConnections((error, count) => (error ? reject(error) : resolve(count))));

/** A connection that never closes its side, sending `request`; `answer` resolves once `until` has come, `ended` when the server ends. */
function open(port: number, request: string, until: string) {
  const socket = net.connect({ port, host: "127.0.0.1", allowHalfOpen: true }, () => socket.write(request));
  socket.on("error", () => {});
  let text = "";
  const answer = new Promise<string>((resolve) => socket.on("data", (chunk) => (text += chunk.toString()).includes(until) && resolve(text)));
  const ended = new Promise<void>((resolve) => socket.on("end", resolve));
  return { socket, answer, ended };
}

const TOO_LARGE = "POST / HTTP/1.1\r\nhost: x\r\ncontent-length: 2000000\r\nconnection: close\r\n\r\nxxxx";

describe("lingering close", () => {
  it("closes at once a connection whose request was read whole", async () => {
    const port = await lingeringServer();
    const { answer, ended } = open(port, "POST /read HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\nconnection: close\r\n\r\nsmall", "read");
    expect(await answer).toMatch(/^HTTP\/1\.1 200/);
    // No linger was set, and the clock never moves: the server ended the connection by itself.
    expect(vi.getTimerCount()).toBe(0);
    await ended;
    expect(await eventually(connections, (count) => count === 0)).toBe(0);
  });

  it.each(["/", "/stated"])("answers a refused body at once, whole, goes on reading the body, and closes once it has all come (%s)", async (path) => {
    const port = await lingeringServer();
    const { socket, answer, ended } = open(port, TOO_LARGE.replace("POST / ", `POST ${path} `), REFUSAL);
    expect(await answer).toMatch(/^HTTP\/1\.1 413[^]*content-length: 30\r\n/i);
    // The answer is written and the linger is set: the connection stays open for the rest of the body.
    expect(vi.getTimerCount()).toBe(1);
    expect(await connections()).toBe(1);
    socket.write("x".repeat(2_000_000 - 4));
    await ended;
    // Ended by the body's end, the linger never having run out; its timer is cleared.
    expect(vi.getTimerCount()).toBe(0);
  });

  it("cuts off a client that never sends the rest of its body", async () => {
    const port = await lingeringServer();
    const { answer, ended } = open(port, TOO_LARGE, REFUSAL);
    // Answered while the linger has not begun to run out.
    await answer;
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(LINGER_MS - 1);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1);
    await ended;
    expect(await eventually(connections, (count) => count === 0)).toBe(0);
  });
});
