import type { Logger } from "../log.ts";
import type { OrderEvent, OrderEvents } from "./events.ts";
import type { Order } from "./order.ts";
import type { OrdersService } from "./service.ts";

/** One open live feed (an SSE stream): where to send orders and how to end it. */
export interface FeedStream {
  userId: string;
  send(order: Order, placed: number): Promise<void>;
  /** An order the stream may have been sent changed (a refund): sent again, to replace it in place. */
  update(order: Order): Promise<void>;
  /** Ends the stream at once (shutdown). */
  end(): void;
}

/** The order without when it was written (that is the SSE id's business, not the order's). */
const withoutPlaced = ({ placed: _placed, ...order }: Order & { placed: number }): Order => order;

/** The most live streams one instance holds open for one shopper, and for one client address. */
export const STREAM_LIMITS = { perUser: 10, perAddress: 100 };

/** Events may cross instances' clocks: catch up a little earlier than asked and let ids dedupe. */
export const CATCH_UP_MARGIN_MS = 5_000;

/**
 * The live order feeds of this process. One subscription to OrderEvents serves every open
 * stream: an announced order is loaded once and sent to each stream of its user, and after a
 * lost notification connection every stream catches up from the last order it sent.
 */
export class OrderFeed {
  private readonly streams = new Map<string, Set<FeedStream>>();
  private readonly sentUpTo = new WeakMap<FeedStream, number>();
  /** What each stream has been sent, so a catch-up never sends an order twice on one stream. */
  private readonly sent = new WeakMap<FeedStream, Set<string>>();
  private readonly unsubscribe: () => void;
  /** Open streams (reserved slots) per shopper and per client address. */
  private readonly slots = { user: new Map<string, number>(), address: new Map<string, number>() };

  constructor(
    private readonly orders: OrdersService,
    events: OrderEvents,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.unsubscribe = events.subscribe((event) => void this.onEvent(event));
  }

  get openStreams(): number {
    let count = 0;
    for (const set of this.streams.values()) count += set.size;
    return count;
  }

  /**
   * Reserves a stream for `userId` from `address`: the function that frees it again, or null when
   * either already holds its most (STREAM_LIMITS). Each stream holds a socket and a place in every
   * announcement, so one shopper's tabs, or one address's scripts, must not take them all.
   */
  reserve(userId: string, address: string): (() => void) | null {
    const { user, address: byAddress } = this.slots;
    if ((user.get(userId) ?? 0) >= STREAM_LIMITS.perUser || (byAddress.get(address) ?? 0) >= STREAM_LIMITS.perAddress) return null;
    const change = (map: Map<string, number>, key: string, by: number) => {
      const count = (map.get(key) ?? 0) + by;
      if (count > 0) map.set(key, count);
      else map.delete(key);
    };
    change(user, userId, 1);
    change(byAddress, address, 1);
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      change(user, userId, -1);
      change(byAddress, address, -1);
    };
  }

  /**
   * Starts feeding `stream`; with `since` (from Last-Event-ID, or the page's render time) it first
   * sends what was placed from then on. Returns the function that stops it.
   */
  async open(stream: FeedStream, since: { placed: number; lastOrderId?: string } | null): Promise<() => void> {
    const set = this.streams.get(stream.userId) ?? new Set();
    this.streams.set(stream.userId, set.add(stream));
    this.sentUpTo.set(stream, since?.placed ?? this.now());
    // The order the client saw last is not sent again by the catch-up's safety margin.
    this.sent.set(stream, new Set(since?.lastOrderId ? [since.lastOrderId] : []));
    if (since !== null) await this.catchUp(stream);
    return () => {
      set.delete(stream);
      if (set.size === 0 && this.streams.get(stream.userId) === set) this.streams.delete(stream.userId);
    };
  }

  /** Ends every open stream at once, so a shutdown is not held up by them. */
  closeAll(): void {
    this.unsubscribe();
    for (const set of this.streams.values()) for (const stream of set) stream.end();
    this.streams.clear();
  }

  private async onEvent(event: OrderEvent) {
    try {
      if (event.type === "resync") {
        for (const set of this.streams.values()) for (const stream of set) await this.catchUp(stream);
        return;
      }
      const set = this.streams.get(event.userId);
      if (!set || set.size === 0) return;
      const order = await this.orders.find(event.userId, event.orderId);
      if (!order) return;
      if (event.type === "updated") {
        for (const stream of set) await stream.update(withoutPlaced(order));
        return;
      }
      for (const stream of set) await this.deliver(stream, order);
    } catch (error) {
      this.log.error({ err: error }, "order feed could not deliver an event");
    }
  }

  private async catchUp(stream: FeedStream) {
    const since = (this.sentUpTo.get(stream) ?? this.now()) - CATCH_UP_MARGIN_MS;
    for (const order of await this.orders.placedSince(stream.userId, since)) await this.deliver(stream, order);
  }

  private async deliver(stream: FeedStream, { placed, ...order }: Order & { placed: number }) {
    const sent = this.sent.get(stream) ?? new Set<string>();
    this.sent.set(stream, sent);
    if (sent.has(order.id)) return;
    sent.add(order.id);
    this.sentUpTo.set(stream, Math.max(this.sentUpTo.get(stream) ?? 0, placed));
    await stream.send(order, placed);
  }
}
