import { EventEmitter } from "node:events";
import { sql, type Transaction } from "kysely";
import pg from "pg";
import type { Schema } from "../db/schema.ts";
import type { Logger } from "../log.ts";
import type { CatalogueChange } from "./catalogue.ts";

/**
 * Products whose data changed (a sale, a reservation, a stock or price change): `ids`. `ids: null`
 * means "anything may have changed" (after a lost LISTEN connection came back).
 */
export type CatalogueChanged = CatalogueChange;

/**
 * Announces catalogue changes to every app instance, as OrderEvents does for orders: in-process
 * on SQLite, LISTEN/NOTIFY on PostgreSQL. Published inside the transaction that made the change;
 * listeners read the products again, and see the change once it is committed.
 */
export interface CatalogueEvents {
  publish(trx: Transaction<Schema>, event: { ids: number[] }): Promise<void>;
  subscribe(listener: (event: CatalogueChanged) => void): () => void;
  /** Resolves once events published from now on reach this process's subscribers. */
  listening(): Promise<void>;
  close(): Promise<void>;
}

/** One process on SQLite: told on the next turn of the event loop, once the transaction is done with the connection. */
export class InProcessCatalogueEvents implements CatalogueEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(_trx: Transaction<Schema>, event: { ids: number[] }): Promise<void> {
    setImmediate(() => this.emitter.emit("event", { ids: [...event.ids] } satisfies CatalogueChanged));
  }

  async listening(): Promise<void> {}

  subscribe(listener: (event: CatalogueChanged) => void): () => void {
    this.emitter.on("event", listener);
    return () => this.emitter.off("event", listener);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

const CHANNEL = "storefront_catalogue";
const RECONNECT_MAX_MS = 10_000;

/**
 * PostgreSQL: `pg_notify` in the transaction (delivered on commit only), one listening connection
 * per process, re-established after the database restarts; then listeners hear `ids: null`, since
 * notifications sent meanwhile are lost.
 */
export class PostgresCatalogueEvents implements CatalogueEvents {
  private readonly emitter = new EventEmitter().setMaxListeners(0);
  private client: pg.Client | null = null;
  private closed = false;
  private retryMs = 250;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly firstConnect: Promise<void>;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly log: Logger,
  ) {
    this.firstConnect = this.connect(false);
  }

  async publish(trx: Transaction<Schema>, { ids }: { ids: number[] }): Promise<void> {
    await sql`select pg_notify(${CHANNEL}, ${JSON.stringify({ ids })})`.execute(trx);
  }

  listening(): Promise<void> {
    return this.firstConnect;
  }

  subscribe(listener: (event: CatalogueChanged) => void): () => void {
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
        const { ids } = JSON.parse(message.payload) as { ids: unknown };
        if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id))) throw new Error("bad ids");
        this.emitter.emit("event", { ids: ids as number[] } satisfies CatalogueChanged);
      } catch {
        this.log.warn({ channel: CHANNEL }, "unreadable catalogue notification; ignored");
      }
    });
    try {
      await client.connect();
      if (this.closed) return void (await this.discard(client));
      await client.query(`listen ${CHANNEL}`);
      if (this.closed) return void (await this.discard(client));
      this.client = client;
      this.retryMs = 250;
      if (reconnecting) {
        this.log.info("catalogue notifications listening again");
        this.emitter.emit("event", { ids: null } satisfies CatalogueChanged);
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
      this.log.warn({ err: error }, "catalogue notifications connection lost; reconnecting");
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
