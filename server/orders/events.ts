import type { Transaction } from "kysely";
import { Broadcast } from "../db/broadcast.ts";
import type { Listening, PostgresNotifications } from "../db/listener.ts";
import { notifyAtCommit } from "../db/postgres-driver.ts";
import type { Schema } from "../db/schema.ts";
import type { Logger } from "../log.ts";

/**
 * An order was written (`placed`) or changed (`updated`: a refund), or the feed may have missed
 * some and should catch up (`resync`).
 */
export type OrderEvent = { type: "placed" | "updated"; userId: string; orderId: string } | { type: "resync" };

/** What is published: an order was written, or changed, in the transaction. */
export type PlacedEvent = Extract<OrderEvent, { type: "placed" | "updated" }>;

/**
 * Announces new orders to every app instance. Two adapters: in-process (one instance, SQLite)
 * and PostgreSQL LISTEN/NOTIFY (any number of instances on one database). An event says only that
 * an order may exist: listeners read it from the database, which shows it once it is committed
 * (and never, if the transaction rolled back).
 */
export interface OrderEvents {
  /** Called inside the transaction that writes the order. */
  publish(trx: Transaction<Schema>, event: PlacedEvent): Promise<void>;
  subscribe(listener: (event: OrderEvent) => void): () => void;
  /** Resolves once events published from now on reach this process's subscribers. */
  listening(): Promise<void>;
  close(): Promise<void>;
}

/**
 * One process on SQLite, in memory. It tells listeners once the transaction has committed
 * (`afterCommit`: AppDatabase's), so their reads see the committed order, or nothing after a
 * rollback.
 */
export class InProcessOrderEvents implements OrderEvents {
  private readonly subscribers = new Broadcast<OrderEvent>();

  constructor(private readonly afterCommit: (callback: () => void) => void = setImmediate) {}

  async publish(_trx: Transaction<Schema>, event: PlacedEvent): Promise<void> {
    this.afterCommit(() => this.subscribers.emit(event));
  }

  async listening(): Promise<void> {}

  subscribe(listener: (event: OrderEvent) => void): () => void {
    return this.subscribers.subscribe(listener);
  }

  async close(): Promise<void> {
    this.subscribers.clear();
  }
}

const CHANNEL = "storefront_orders";

/**
 * PostgreSQL: `pg_notify` inside the fulfilment transaction (PostgreSQL delivers it only on
 * commit), heard on the process's listening connection (db/listener.ts), re-established after the
 * database restarts; each time it is, listeners are told to resync, since notifications sent
 * meanwhile are lost.
 */
export class PostgresOrderEvents implements OrderEvents {
  private readonly subscribers = new Broadcast<OrderEvent>();
  private readonly listener: Listening;
  private listenedBefore = false;

  constructor(notifications: PostgresNotifications, log: Logger) {
    const onMessage = (payload: string) => {
      try {
        const { type, userId, orderId } = JSON.parse(payload) as { type?: string; userId: string; orderId: string };
        this.subscribers.emit({ type: type === "updated" ? "updated" : "placed", userId, orderId } satisfies OrderEvent);
      } catch {
        log.warn({ channel: CHANNEL }, "unreadable order notification; ignored");
      }
    };
    const onListening = async () => {
      if (this.listenedBefore) {
        log.info("order notifications listening again");
        this.subscribers.emit({ type: "resync" } satisfies OrderEvent);
      }
      this.listenedBefore = true;
    };
    this.listener = notifications.listen(CHANNEL, { onMessage, onListening });
  }

  /** `pg_notify` inside the transaction: PostgreSQL delivers it only on commit. */
  async publish(trx: Transaction<Schema>, { type, userId, orderId }: PlacedEvent): Promise<void> {
    // In the transaction still, but sent with its COMMIT: no round trip of its own.
    await notifyAtCommit(trx, CHANNEL, { type, userId, orderId });
  }

  listening(): Promise<void> {
    return this.listener.ready;
  }

  subscribe(listener: (event: OrderEvent) => void): () => void {
    return this.subscribers.subscribe(listener);
  }

  async close(): Promise<void> {
    this.subscribers.clear();
    await this.listener.close();
  }
}
