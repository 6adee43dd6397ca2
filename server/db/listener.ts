import pg from "pg";
import type { Logger } from "../log.ts";

const RECONNECT_MAX_MS = 10_000;

/**
 * One PostgreSQL LISTEN connection for one channel, re-established after the database restarts
 * (doubling pauses up to 10 s). `onMessage` gets each payload; `onListening` runs every time the
 * LISTEN is in place, first time included: notifications sent while it was not are lost, so that
 * is where a listener reloads what it keeps.
 */
export class PostgresListener {
  private client: pg.Client | null = null;
  private closed = false;
  private retryMs = 250;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Settles once the first LISTEN is in place (or has failed; it keeps retrying). */
  readonly ready: Promise<void>;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly channel: string,
    private readonly handlers: { onMessage(payload: string): void; onListening(): Promise<void> },
    private readonly log: Logger,
  ) {
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    this.ready = this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    await this.client?.end().catch(() => {});
    this.client = null;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    // The pool's settings, but one query at a time: LISTEN needs no pipelining (database.ts).
    const client = new pg.Client({ ...this.connection, pipeline: false });
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client, null));
    client.on("notification", (message) => {
      if (message.channel === this.channel && message.payload) this.handlers.onMessage(message.payload);
    });
    try {
      await client.connect();
      if (this.closed) return void (await this.discard(client));
      await client.query(`listen ${this.channel}`);
      if (this.closed) return void (await this.discard(client));
      this.client = client;
      this.retryMs = 250;
      await this.handlers.onListening();
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
      this.log.warn({ err: error, channel: this.channel }, "notification connection lost; reconnecting");
    }
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
  }
}
