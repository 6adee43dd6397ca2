import type { Transaction } from "kysely";
import type pg from "pg";
import { Broadcast } from "../db/broadcast.ts";
import { PostgresListener } from "../db/listener.ts";
import { notifyAtCommit } from "../db/postgres-driver.ts";
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

/** One process on SQLite: told once the transaction has committed (`afterCommit`: AppDatabase's), so listeners read the change. */
export class InProcessCatalogueEvents implements CatalogueEvents {
  private readonly subscribers = new Broadcast<CatalogueChanged>();

  constructor(private readonly afterCommit: (callback: () => void) => void = setImmediate) {}

  async publish(_trx: Transaction<Schema>, event: { ids: number[] }): Promise<void> {
    this.afterCommit(() => this.subscribers.emit({ ids: [...event.ids] } satisfies CatalogueChanged));
  }

  async listening(): Promise<void> {}

  subscribe(listener: (event: CatalogueChanged) => void): () => void {
    return this.subscribers.subscribe(listener);
  }

  async close(): Promise<void> {
    this.subscribers.clear();
  }
}

const CHANNEL = "storefront_catalogue";

/**
 * PostgreSQL: `pg_notify` in the transaction (delivered on commit only), one listening connection
 * per process (db/listener.ts), re-established after the database restarts; then listeners hear
 * `ids: null`, since notifications sent meanwhile are lost.
 */
export class PostgresCatalogueEvents implements CatalogueEvents {
  private readonly subscribers = new Broadcast<CatalogueChanged>();
  private readonly listener: PostgresListener;
  private listenedBefore = false;

  constructor(connection: pg.ClientConfig, log: Logger) {
    const onMessage = (payload: string) => {
      try {
        const { ids } = JSON.parse(payload) as { ids: unknown };
        if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id))) throw new Error("bad ids");
        this.subscribers.emit({ ids: ids as number[] } satisfies CatalogueChanged);
      } catch {
        log.warn({ channel: CHANNEL }, "unreadable catalogue notification; ignored");
      }
    };
    const onListening = async () => {
      if (this.listenedBefore) {
        log.info("catalogue notifications listening again");
        this.subscribers.emit({ ids: null } satisfies CatalogueChanged);
      }
      this.listenedBefore = true;
    };
    this.listener = new PostgresListener(connection, CHANNEL, { onMessage, onListening }, log);
  }

  async publish(trx: Transaction<Schema>, { ids }: { ids: number[] }): Promise<void> {
    // In the transaction still, but sent with its COMMIT: no round trip of its own.
    await notifyAtCommit(trx, CHANNEL, { ids });
  }

  listening(): Promise<void> {
    return this.listener.ready;
  }

  subscribe(listener: (event: CatalogueChanged) => void): () => void {
    return this.subscribers.subscribe(listener);
  }

  async close(): Promise<void> {
    this.subscribers.clear();
    await this.listener.close();
  }
}
