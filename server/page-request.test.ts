import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { listen } from "../test/support/listen.ts";
import type { AppEnv } from "./http/env.ts";
import { withOwnSignal } from "./page-request.ts";

// Over real HTTP, as main.ts serves it: React Router's handler gets the request @hono/node-server
// made, with a signal of its own that still tells when the client went away.

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/**
 * Serves a route that hands its request through withOwnSignal, as pages.ts does, and reports it to
 * `seen`, with a promise of the end of node:http's response (its "close", which withOwnSignal
 * heard first).
 */
async function serve(seen: (request: Request, own: Request, closed: Promise<void>) => Promise<Response> | Response) {
  const app = new Hono<AppEnv>();
  app.all("/page", (c) => {
    const own = withOwnSignal(c.req.raw, c.env?.outgoing);
    const closed = new Promise<void>((resolve) => c.env?.outgoing?.once("close", () => resolve()));
    return seen(c.req.raw, own, closed);
  });
  const server = await listen(app.fetch);
  close = server.close;
  return server.url;
}

describe("withOwnSignal", () => {
  it("gives a GET request with its own URL, method and headers, and a signal that is not aborted", async () => {
    const url = await serve((request, own) => {
      expect(own).not.toBe(request);
      expect(own).toBeInstanceOf(Request);
      expect(own.signal).toBeInstanceOf(AbortSignal);
      return new Response(JSON.stringify({ url: own.url, method: own.method, header: own.headers.get("x-test"), aborted: own.signal.aborted }));
    });
    const response = await fetch(`${url}/page?x=1`, { headers: { "x-test": "yes" } });
    expect(await response.json()).toEqual({ url: `${url}/page?x=1`, method: "GET", header: "yes", aborted: false });
  });

  it("aborts the signal when the client goes away before the answer is written, and not after", async () => {
    const signals: AbortSignal[] = [];
    const closes: Array<Promise<void>> = [];
    let answer: (() => void) | undefined;
    let arrived = () => {};
    const firstArrived = new Promise<void>((resolve) => (arrived = resolve));
    const url = await serve((_, own, closed) => {
      signals.push(own.signal);
      closes.push(closed);
      arrived();
      return signals.length === 1 ? new Promise<Response>((resolve) => (answer = () => resolve(new Response("late")))) : new Response("at once");
    });
    const gone = new AbortController();
    const first = fetch(`${url}/page`, { signal: gone.signal }).catch(() => null);
    await firstArrived;
    gone.abort();
    await first;
    await new Promise<void>((resolve) => signals[0]!.addEventListener("abort", () => resolve(), { once: true }));
    expect(signals[0]!.aborted).toBe(true);
    answer?.();

    expect(await (await fetch(`${url}/page`)).text()).toBe("at once");
    // The response has ended, and withOwnSignal has heard it end, written whole.
    await closes[1];
    expect(signals[1]!.aborted).toBe(false);
  });

  it("leaves other methods' requests, and requests without node:http, as they are", async () => {
    const url = await serve((request, own) => new Response(String(own === request)));
    expect(await (await fetch(`${url}/page`, { method: "POST", body: "x" })).text()).toBe("true");
    const request = new Request("http://localhost/page");
    expect(withOwnSignal(request, undefined)).toBe(request);
  });
});
