import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { MAX_BODY_BYTES, bodyLimitStep } from "./body-limit.ts";
import type { AppEnv } from "./env.ts";
import { jsonBody } from "../api-edge/json-body.ts";
import { jsonResponse } from "../api-edge/json-response.ts";
import { withSmallBodies } from "./body-read-ahead.ts";
import { HttpError } from "../http-error.ts";

// Bodies read ahead before the app (withSmallBodies) through a real node:http listener, as main.ts
// serves it: the app gets the same body, the body limit still holds, and what is not read ahead
// still reaches the app as a stream.

let base: string;
let server: http.Server;
/** Requests that reached the app, and how each ended there. */
const reached: string[] = [];

beforeAll(async () => {
  const app = new Hono<AppEnv>();
  app.onError((error, c) => (error instanceof HttpError ? jsonResponse(c, { error: error.message }, error.status) : c.text(String(error), 500)));
  app.use("*", async (c, next) => {
    await next();
    reached.push(`${c.req.path} ${c.res.status}`);
  });
  app.use("*", bodyLimitStep());
  // What the route parsed, and whether the adapter handed it a buffer read ahead.
  app.post("/json", async (c) => jsonResponse(c, { body: await jsonBody(c, z.unknown()), readAhead: c.env.incoming !== undefined && "rawBody" in c.env.incoming }));
  app.post("/text", async (c) => c.text(await c.req.text()));
  server = http.createServer(withSmallBodies(getRequestListener(app.fetch)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A POST written as given: chunked when `length` is false. */
function post(path: string, body: Buffer, length = true): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...(length ? { "content-length": String(body.byteLength) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    if (length) req.end(body);
    else {
      // Sent in several chunks, so the body has no stated length.
      for (let at = 0; at < body.byteLength; at += 16 * 1024) req.write(body.subarray(at, at + 16 * 1024));
      req.end();
    }
  });
}

describe("bodies read ahead", () => {
  it("hands a body of stated length to the route as read ahead, parsed as sent", async () => {
    const sent = { items: [{ id: 1, amount: 2 }], note: "grüße ✓" };
    const answer = await post("/json", Buffer.from(JSON.stringify(sent)));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ body: sent, readAhead: true });
  });

  it("drops a leading byte order mark, as the request's own text() does", async () => {
    const answer = await post("/json", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]));
    expect(JSON.parse(answer.text)).toEqual({ body: { a: 1 }, readAhead: true });
  });

  it("keeps the request's own body readable for routes that read it themselves", async () => {
    const answer = await post("/text", Buffer.from("raw text, as a webhook reads it"));
    expect(answer).toEqual({ status: 200, text: "raw text, as a webhook reads it" });
  });

  it("leaves a body sent in chunks to the app's stream, within the limit and over it", async () => {
    const small = await post("/json", Buffer.from('{"chunked":true}'), false);
    expect(JSON.parse(small.text)).toEqual({ body: { chunked: true }, readAhead: false });
    const large = await post("/json", Buffer.from(JSON.stringify({ text: "x".repeat(MAX_BODY_BYTES) })), false);
    expect(large.status).toBe(413);
  });

  it("refuses a stated length over the limit with 413, without reading it ahead", async () => {
    const answer = await post("/json", Buffer.from(JSON.stringify({ text: "x".repeat(MAX_BODY_BYTES) })));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toEqual({ error: "The request body is too large." });
  });

  it("answers 400 to a body read ahead that is not JSON", async () => {
    const answer = await post("/json", Buffer.from("{not json"));
    expect(answer.status).toBe(400);
  });

  it("still hands the app a body the client cut off, which it refuses as before", async () => {
    reached.length = 0;
    const port = (server.address() as AddressInfo).port;
    // Hung up once the server has the request's head and a part of its body.
    const socket = net.connect(port, "127.0.0.1", () => socket.write("POST /json HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"cut"));
    server.once("request", () => socket.destroy());
    socket.on("error", () => {});
    await vi.waitFor(() => expect(reached).toContain("/json 400"));
  });
});
