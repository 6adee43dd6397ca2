import type { HttpBindings } from "@hono/node-server";
import { describe, expect, it } from "vitest";
import { cleanupAfterEach, testEngines } from "../../test/support/database.ts";
import { signUp, type testApp, testAppOnFreshDatabase } from "../../test/support/app.ts";
import { eventually } from "../../test/support/poll.ts";
import { STREAM_LIMITS } from "./feed.ts";

// Live order streams are bounded on one instance: at most 10 per shopper and 100 per client
// address; beyond that 429 (with Retry-After), and a closed stream frees its place.

type App = Awaited<ReturnType<typeof testApp>>["app"];

/** What node:http would hand the app for a request from `ip`. */
const fromClient = (ip: string) => ({ incoming: { socket: { remoteAddress: ip } } }) as unknown as HttpBindings;

describe.each(testEngines())("live order stream caps on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  const setup = () => testAppOnFreshDatabase(engine, cleanup);

  /** Opens a stream; an open one is cancelled when the test ends. */
  async function open(app: App, cookie: string, ip: string): Promise<Response> {
    const response = await app.request("/api/orders/stream", { headers: { cookie } }, fromClient(ip));
    if (response.status === 200) cleanup(() => response.body!.cancel());
    return response;
  }

  it("answers the 11th stream of one shopper 429 with Retry-After, and takes one again once a stream closes", async () => {
    const { app } = await setup();
    const ada = await signUp(app, "ada@example.com");
    const streams: Response[] = [];
    for (let i = 0; i < STREAM_LIMITS.perUser; i++) streams.push(await open(app, ada, `10.0.0.${i + 1}`));
    expect(streams.map((s) => s.status)).toEqual(Array(10).fill(200));
    const refused = await open(app, ada, "10.0.1.1");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ error: "Too many live order streams are open. Close some tabs and try again." });
    // Someone else is not affected.
    expect((await open(app, await signUp(app, "bea@example.com"), "10.0.0.1")).status).toBe(200);
    // A closed tab frees its place.
    await streams[0]!.body!.cancel();
    const again = await eventually(() => open(app, ada, "10.0.1.1"), (response) => response.status === 200);
    expect(again.status).toBe(200);
  });

  it("answers the 101st stream from one client address 429, whoever is signed in", async () => {
    const { app } = await setup();
    const statuses: number[] = [];
    for (let user = 0; user < 11; user++) {
      const cookie = await signUp(app, `shopper${user}@example.com`);
      for (let i = 0; i < 10 && statuses.length < STREAM_LIMITS.perAddress + 1; i++) statuses.push((await open(app, cookie, "203.0.113.7")).status);
    }
    expect(statuses.slice(0, 100)).toEqual(Array(100).fill(200));
    expect(statuses[100]).toBe(429);
  });
});
