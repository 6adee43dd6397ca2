import type http from "node:http";
import net from "node:net";

/** How long a connection closed on an unread request body goes on reading (and discarding) it. */
export const LINGER_MS = 5_000;

const pendingRequest = Symbol("the request the socket is answering");
const lingering = Symbol("lingering until the client ends");
type LingeringSocket = net.Socket & { destroySoon(): void; [pendingRequest]?: http.IncomingMessage; [lingering]?: true };
const { destroySoon } = net.Socket.prototype as LingeringSocket;

/**
 * Lingering close, as nginx and Apache do it. The shop answers some requests before it has read
 * their bodies: a body over the limit gets its 413 from the Content-Length alone. When that
 * connection is then closed (the client asked for `Connection: close`), node:http closes the
 * socket as soon as the answer is written, with the rest of the body still arriving: the kernel
 * answers those bytes with a reset, and a client still sending its body gets the reset instead of
 * the answer (bench/faults saw 1 such request in 1,102; by hand, 47 in 300 two-megabyte posts).
 *
 * Here such a socket sends its answer and its end, then goes on reading what the client sends (the
 * request's parser discards it) until the client ends too, for at most LINGER_MS. A connection
 * whose request was read whole closes as before.
 */
export function lingerOnUnreadBodies(server: http.Server, lingerMs = LINGER_MS): void {
  // Both node:http (the answer written on a closing connection) and @hono/node-server (a body it
  // stopped draining) end a connection through destroySoon: lingering there covers both, once.
  function lingerSoon(this: LingeringSocket) {
    if (this[lingering]) return;
    const request = this[pendingRequest];
    if (!request || request.complete || this.destroyed || this.readableEnded) return destroySoon.call(this);
    this[lingering] = true;
    this.end();
    const cutOff = setTimeout(() => this.destroy(), lingerMs);
    this.once("end", () => this.destroy());
    this.once("close", () => clearTimeout(cutOff));
  }
  server.on("connection", (socket: LingeringSocket) => {
    socket.destroySoon = lingerSoon;
  });
  server.prependListener("request", (request: http.IncomingMessage) => {
    (request.socket as LingeringSocket)[pendingRequest] = request;
  });
}
