import { Hono } from "hono";
import { type SSEStreamingApi, streamSSE } from "hono/streaming";
import { z } from "zod";
import type { AppEnv } from "../http/env.ts";
import { jsonResponse } from "../api-edge/json-response.ts";
import { limitParam, queryParams } from "../api-edge/query.ts";
import { HttpError, TooManyRequests } from "../http-error.ts";
import type { OrderFeed } from "./feed.ts";
import { orderJson } from "./order.ts";
import type { OrdersService } from "./service.ts";

const HEARTBEAT_MS = 15_000;
/** A tab closed elsewhere frees a stream at once; a few seconds is a fair wait. */
const STREAM_RETRY_SECONDS = 5;

const listQuery = z.object({
  limit: limitParam(50).default(10),
  before: z.string().max(300).optional(),
});

/**
 * Where a feed resumes: an SSE id ("<time written>.<order id>", sent back as Last-Event-ID) or the
 * page's `since` (a time); null when absent or malformed.
 */
function resumeFrom(raw: string | undefined): { placed: number; lastOrderId?: string } | null {
  const match = raw ? /^(\d{1,15})(?:\.([\w-]{1,255}))?$/.exec(raw) : null;
  return match ? { placed: Number(match[1]), lastOrderId: match[2] } : null;
}

/**
 * /api/orders: the signed-in shopper's orders (JSON pages, one order) and their live feed (SSE).
 * `instance` names the process in each stream's first event, so operators (and the scale-out
 * test) can see where it landed.
 */
export function orderRoutes(orders: OrdersService, feed: OrderFeed, instance: string): Hono<AppEnv> {
  const api = new Hono<AppEnv>();

  api.use("*", async (c, next) => {
    if (!c.get("user")) throw new HttpError(401, "You must log in to access your orders");
    c.header("Cache-Control", "private, no-store");
    await next();
  });

  api.get("/", async (c) => {
    const page = await orders.page(c.get("user")!.uid, queryParams(c, listQuery));
    if (!page.ok) throw new HttpError(400, page.message);
    return jsonResponse(c, { orders: page.value.orders.map(orderJson), next: page.value.next });
  });

  /**
   * Server-Sent Events: `order` events with the order as data and the time it was written as id.
   * A reconnecting EventSource sends that id back (Last-Event-ID) and gets what it missed; the
   * page's first connection sends `since`, the time its server-rendered list was read.
   */
  api.get("/stream", (c) => {
    const userId = c.get("user")!.uid;
    const release = feed.reserve(userId, c.get("clientIp"));
    if (!release) throw new TooManyRequests("Too many live order streams are open. Close some tabs and try again.", STREAM_RETRY_SECONDS);
    const since = resumeFrom(c.req.header("last-event-id")) ?? resumeFrom(c.req.query("since"));
    c.header("Cache-Control", "no-cache, no-transform");
    // nginx passes this stream on as it comes instead of buffering it.
    c.header("X-Accel-Buffering", "no");
    return streamSSE(c, async (stream) => {
      try {
        await feedStream(stream, feed, userId, since, instance);
      } finally {
        release();
      }
    });
  });

  api.get("/:id", async (c) => {
    const order = await orders.find(c.get("user")!.uid, c.req.param("id"));
    // Someone else's order is as unknown as one that does not exist.
    if (!order) throw new HttpError(404, "No such order.");
    return jsonResponse(c, { order: orderJson(order) });
  });

  return api;
}

/** Feeds one SSE stream until the client goes away or the feed closes. */
async function feedStream(stream: SSEStreamingApi, feed: OrderFeed, userId: string, since: { placed: number; lastOrderId?: string } | null, instance: string) {
  let finish = () => {};
  const finished = new Promise<void>((resolve) => (finish = resolve));
  stream.onAbort(finish);
  const stop = await feed.open(
    {
      userId,
      send: (order, placed) => stream.writeSSE({ event: "order", id: `${placed}.${order.id}`, data: JSON.stringify(orderJson(order)) }),
      // No id: where a reconnecting feed resumes stays the last order placed.
      update: (order) => stream.writeSSE({ event: "order-updated", data: JSON.stringify(orderJson(order)) }),
      end: () => {
        finish();
        void stream.close();
      },
    },
    since,
  );
  await stream.writeSSE({ event: "ready", data: JSON.stringify({ instance }), retry: 1_000 });
  // Comments keep proxies and load balancers from closing a quiet stream.
  const heartbeat = setInterval(() => void stream.write(": ping\n\n").catch(finish), HEARTBEAT_MS);
  try {
    await finished;
  } finally {
    clearInterval(heartbeat);
    stop();
  }
}
