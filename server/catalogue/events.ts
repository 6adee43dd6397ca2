import type { Transaction } from "kysely";
import { Broadcast } from "../db/broadcast.ts";
import type { Listening, PostgresNotifications } from "../db/listener.ts";
import { notifyAtCommit } from "../db/postgres-driver.ts";
import type { Schema } from "../db/schema.ts";
import type { Logger } from "../log.ts";
import type { CatalogueChange } from "./catalogue.ts";

/**
 * A product's stock and reserved units as the transaction that changed them left them, with no
 * hold of it lapsed (a checkout's reservation expires the lapsed ones of the products it takes):
 * what the catalogue's copy needs to show its availability without reading the product again.
 */
export interface StockFigures {
  id: number;
  stock: number;
  reserved: number;
}

/**
 * Products whose data changed (a sale, a reservation, a stock or price change): `ids`. `ids: null`
 * means "anything may have changed" (after a lost LISTEN connection came back). `figures`, when
 * given, holds the new stock figures of every one of `ids`, and nothing else of them changed.
 */
export type CatalogueChanged = CatalogueChange & { figures?: StockFigures[] };

/** A catalogue change as published: its ids, or `ids: null` when too many changed to name (a catalogue loaded from a file). */
export type CataloguePublished = CatalogueChanged;

const isInteger = (value: unknown): value is number => Number.isInteger(value);

/** `figures` from a notification, when they are whole and match `ids` one for one; else undefined (the products are read again). */
function readFigures(ids: number[], figures: unknown): StockFigures[] | undefined {
  if (!Array.isArray(figures) || figures.length !== ids.length) return undefined;
  const valid = figures.every((f: Partial<StockFigures> | null, i) => f !== null && typeof f === "object" && f.id === ids[i] && isInteger(f.stock) && isInteger(f.reserved));
  return valid ? figures.map(({ id, stock, reserved }: StockFigures) => ({ id, stock, reserved })) : undefined;
}

/**
 * Announces catalogue changes to every app instance, as OrderEvents does for orders: in-process
 * on SQLite, LISTEN/NOTIFY on PostgreSQL. Published inside the transaction that made the change;
 * listeners read the products again, and see the change once it is committed.
 */
export interface CatalogueEvents {
  publish(trx: Transaction<Schema>, event: CataloguePublished): Promise<void>;
  subscribe(listener: (event: CatalogueChanged) => void): () => void;
  /** Resolves once events published from now on reach this process's subscribers. */
  listening(): Promise<void>;
  close(): Promise<void>;
}

/** One process on SQLite: told once the transaction has committed (`afterCommit`: AppDatabase's), so listeners read the change. */
export class InProcessCatalogueEvents implements CatalogueEvents {
  private readonly subscribers = new Broadcast<CatalogueChanged>();

  constructor(private readonly afterCommit: (callback: () => void) => void = setImmediate) {}

  async publish(_trx: Transaction<Schema>, event: CataloguePublished): Promise<void> {
    const change: CatalogueChanged = { ids: event.ids && [...event.ids], figures: event.figures?.map((f) => ({ ...f })), ...(event.stockOnly && { stockOnly: true }) };
    this.afterCommit(() => this.subscribers.emit(change));
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
 * PostgreSQL: `pg_notify` in the transaction (delivered on commit only), heard on the process's
 * listening connection (db/listener.ts), re-established after the database restarts; then listeners hear
 * `ids: null`, since notifications sent meanwhile are lost.
 */
export class PostgresCatalogueEvents implements CatalogueEvents {
  private readonly subscribers = new Broadcast<CatalogueChanged>();
  private readonly listener: Listening;
  private listenedBefore = false;

  constructor(notifications: PostgresNotifications, log: Logger) {
    const onMessage = (payload: string) => {
      try {
        const { ids, figures, stockOnly } = JSON.parse(payload) as { ids: unknown; figures?: unknown; stockOnly?: unknown };
        if (ids === null) {
          this.subscribers.emit({ ids: null } satisfies CatalogueChanged);
          return;
        }
        if (!Array.isArray(ids) || !ids.every(isInteger)) throw new Error("bad ids");
        const heard: CatalogueChanged = { ids, figures: figures === undefined ? undefined : readFigures(ids, figures) };
        if (stockOnly === true) heard.stockOnly = true;
        this.subscribers.emit(heard);
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
    this.listener = notifications.listen(CHANNEL, { onMessage, onListening });
  }

  async publish(trx: Transaction<Schema>, event: CataloguePublished): Promise<void> {
    // In the transaction still, but sent with its COMMIT: no round trip of its own.
    // JSON leaves `figures` and `stockOnly` out when there are none.
    await notifyAtCommit(trx, CHANNEL, { ids: event.ids, figures: event.figures, stockOnly: event.stockOnly || undefined });
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
