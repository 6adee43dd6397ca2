// How long node:http waits for a client, in one place: the proxies in front of the shop
// (deploy/nginx.conf, the local cluster of the scale-out tests) are set against these.

/** A client gets 10 s to send its headers... */
export const HEADERS_TIMEOUT_MS = 10_000;
/** ...and 30 s for its whole request: slow or stalled clients are cut off instead of holding sockets. */
export const REQUEST_TIMEOUT_MS = 30_000;
/**
 * How long an idle keep-alive connection stays open (node's default, made explicit). A proxy that
 * reuses its connections to the shop must drop them well before this: node closes an idle
 * connection in its timers phase, before it reads a request that arrived meanwhile, so a request
 * sent near the end of this window (later still when the event loop lags) meets a reset, and
 * nginx answers a POST that met one with 502 rather than retry it elsewhere.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/**
 * The longest idle time a proxy's kept connections to the shop may have (nginx: upstream
 * keepalive_timeout): two seconds under the shop's, for an event loop that runs that late.
 */
export const PROXY_KEEP_ALIVE_MAX_MS = KEEP_ALIVE_TIMEOUT_MS - 2_000;
