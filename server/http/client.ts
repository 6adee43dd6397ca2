import net from "node:net";
import type { HttpBindings } from "@hono/node-server";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";

/**
 * The client's address: the socket's peer, or, behind `trustProxy` proxies of our own, the entry
 * the outermost of them wrote into X-Forwarded-For. Entries to the left of it are whatever the
 * client sent, so they are never believed: a forged header cannot pass for another client.
 */
export function clientAddress(env: Partial<HttpBindings> | undefined, forwardedFor: () => string | undefined, trustProxy: number): string {
  const socket = env?.incoming?.socket?.remoteAddress ?? "unknown";
  // Without proxies of ours the header is not even read (reading one builds the request's Headers).
  const forwarded = trustProxy === 0 ? undefined : forwardedFor();
  if (!forwarded) return socket;
  const hops = forwarded
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const client = hops[hops.length - trustProxy];
  return client && net.isIP(client) ? client : socket;
}

/** Learns the client's address once per request (`clientIp`), for rate limits and logs. */
export function clientAddressStep(trustProxy: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set("clientIp", clientAddress(c.env, () => c.req.header("x-forwarded-for"), trustProxy));
    await next();
  };
}
