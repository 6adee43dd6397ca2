import { EventEmitter } from "node:events";
import { sql, type Transaction } from "kysely";
import pg from "pg";
import type { Schema } from "../db/schema.ts";
import type { Logger } from "../log.ts";

/** An order was written (`placed`), or the feed may have missed some and should catch up (`resync`). */
export type OrderEvent = { type: "placed"; userId: string; orderId: string } | { type: "resync" };

/** What is published: an order was written in the transaction. */
export type PlacedEvent = Extract<OrderEvent, { type: "placed" }>;

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
 * One process on SQLite: an event emitter. It tells listeners as soon as the transaction has
 * finished with the one connection (the event loop's next turn): their reads queue behind the
 * transaction on that connection, so they see the committed order, or nothing after a rollback.
 */
export class InProcessOrderEvents implements OrderEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(_trx: Transaction<Schema>, event: PlacedEvent): Promise<void> {
    setImmediate(() => this.emitter.emit("event", event));
  }

  async listening(): Promise<void> {}

  subscribe(listener: (event: OrderEvent) => void): () => void {
    this.emitter.on("event", listener);
    return () => this.emitter.off("event", listener);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

const CHANNEL = "storefront_orders";
const RECONNECT_MAX_MS = 10_000;

/**
 * PostgreSQL: `pg_notify` inside the fulfilment transaction (PostgreSQL delivers it only on
 * commit), one listening connection per process, re-established after the database restarts;
 * each time it is, listeners are told to resync, since notifications sent meanwhile are lost.
 */
export class PostgresOrderEvents implements OrderEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private client: pg.Client | null = null;
  private closed = false;
  private retryMs = 250;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Settles once the first LISTEN is in place (or has failed; it keeps retrying). */
  private readonly firstConnect: Promise<void>;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly log: Logger,
  ) {
    this.firstConnect = this.connect(false);
  }

  /** `pg_notify` inside the transaction: PostgreSQL delivers it only on commit. */
  async publish(trx: Transaction<Schema>, { userId, orderId }: PlacedEvent): Promise<void> {
    await sql`select pg_notify(${CHANNEL}, ${JSON.stringify({ userId, orderId })})`.execute(trx);
  }

  listening(): Promise<void> {
    return this.firstConnect;
  }

  subscribe(listener: (event: OrderEvent) => void): () => void {
    this.emitter.on("event", listener);
    return () => this.emitter.off("event", listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.emitter.removeAllListeners();
    await this.client?.end().catch(() => {});
    this.client = null;
  }

  private async connect(reconnecting: boolean): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client(this.connection);
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client, null));
    client.on("notification", (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        const { userId, orderId } = JSON.parse(message.payload) as { userId: string; orderId: string };
        this.emitter.emit("event", { type: "placed", userId, orderId } satisfies OrderEvent);
      } catch {
        this.log.warn({ channel: CHANNEL }, "unreadable order notification; ignored");
      }
    });
    try {
      await client.connect();
      // A close() during either wait must not leave this connection behind.
      if (this.closed) return void (await this.discard(client));
      await client.query(`listen ${CHANNEL}`);
      if (this.closed) return void (await this.discard(client));
      this.client = client;
      this.retryMs = 250;
      if (reconnecting) {
        this.log.info("order notifications listening again");
        this.emitter.emit("event", { type: "resync" } satisfies OrderEvent);
      }
    } catch (error) {
      await this.discard(client);
      this.lost(client, error);
    }
  }

  private async discard(client: pg.Client): Promise<void> {
    client.removeAllListeners("end");
    await client.end().catch(() => {});
  }

  private lost(client: pg.Client, error: unknown) {
    if (this.closed || (this.client !== null && this.client !== client)) return;
    if (this.client === client) {
      this.client = null;
      this.log.warn({ err: error }, "order notifications connection lost; reconnecting");
    }
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect(true);
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
  }
}
