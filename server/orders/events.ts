import { EventEmitter } from "node:events";
import { sql, type Transaction } from "kysely";
import pg from "pg";
import type { Schema } from "../db/schema.ts";
import type { Logger } from "../log.ts";

/** An order was written (`placed`), or the feed may have missed some and should catch up (`resync`). */
export type OrderEvent = { type: "placed"; userId: string; orderId: string } | { type: "resync" };

/**
 * Announces new orders to every app instance. Two adapters: in-process (one instance, SQLite)
 * and PostgreSQL LISTEN/NOTIFY (any number of instances on one database).
 */
export interface OrderEvents {
  /** Called inside the fulfilment transaction, so only committed orders are ever announced. */
  inTransaction(trx: Transaction<Schema>, userId: string, orderId: string): Promise<void>;
  /** Called once that transaction has committed. */
  afterCommit(userId: string, orderId: string): void;
  subscribe(listener: (event: OrderEvent) => void): () => void;
  close(): Promise<void>;
}

/** One process: an event emitter, told after the commit. */
export class InProcessOrderEvents implements OrderEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async inTransaction(): Promise<void> {}

  afterCommit(userId: string, orderId: string): void {
    this.emitter.emit("event", { type: "placed", userId, orderId } satisfies OrderEvent);
  }

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
  /** Resolves once the first LISTEN is in place (or failed; it keeps retrying). */
  readonly ready: Promise<void>;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly log: Logger,
  ) {
    this.ready = this.connect(false);
  }

  async inTransaction(trx: Transaction<Schema>, userId: string, orderId: string): Promise<void> {
    await sql`select pg_notify(${CHANNEL}, ${JSON.stringify({ userId, orderId })})`.execute(trx);
  }

  afterCommit(): void {}

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
      await client.query(`listen ${CHANNEL}`);
      this.client = client;
      this.retryMs = 250;
      if (reconnecting) {
        this.log.info("order notifications listening again");
        this.emitter.emit("event", { type: "resync" } satisfies OrderEvent);
      }
    } catch (error) {
      client.removeAllListeners("end");
      await client.end().catch(() => {});
      this.lost(client, error);
    }
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
