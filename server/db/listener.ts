import pg from "pg";
import type { Logger } from "../log.ts";

const RECONNECT_MAX_MS = 10_000;
/** How long a connection may take to be made, unless the settings say (the pool's do: database.ts). */
const CONNECT_TIMEOUT_MS = 5_000;

export interface ChannelHandlers {
  /** Each notification's payload. */
  onMessage(payload: string): void;
  /**
   * Runs every time the channel's LISTEN is in place, first time included: notifications sent
   * while it was not are lost, so that is where a listener reloads what it keeps. A failure here
   * counts as a lost connection (it is made again).
   */
  onListening(): Promise<void>;
}

export interface Listening {
  /** Settles once the channel's first LISTEN is in place (or has failed; it keeps retrying). */
  readonly ready: Promise<void>;
  /** Stops listening on the channel; the connection closes with the last one. */
  close(): Promise<void>;
}

interface Subscription {
  channel: string;
  handlers: ChannelHandlers;
  /** LISTEN is in place on the current connection, and onListening has run. */
  listening: boolean;
  settle: () => void;
}

/**
 * The process's one PostgreSQL LISTEN connection, for all of its channels, made again after the
 * database restarts (doubling pauses up to 10 s). One connection, not one per channel: PostgreSQL
 * (up to 17) wakes every backend that listens in a database at each NOTIFY there, whatever its
 * channel, so each connection more is one wake-up more per checkout on every instance.
 * The connection is open while anyone listens; a channel may have several listeners.
 */
export class PostgresNotifications {
  private readonly subscriptions = new Set<Subscription>();
  /** The connection, from the moment it is made; null while there is none. */
  private client: pg.Client | null = null;
  /** The connection while it is still being made. */
  private connecting: pg.Client | null = null;
  private closed = false;
  private retryMs = 250;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Every change of connection or of channels runs after the one before it. */
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly log: Logger,
  ) {}

  listen(channel: string, handlers: ChannelHandlers): Listening {
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    let settle!: () => void;
    const ready = new Promise<void>((resolve) => (settle = resolve));
    const subscription: Subscription = { channel, handlers, listening: false, settle };
    this.subscriptions.add(subscription);
    void this.sync();
    return { ready, close: () => this.unlisten(subscription) };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    for (const subscription of this.subscriptions) subscription.settle();
    this.subscriptions.clear();
    // A connection still being made is not waited for: pg ends it only when its attempt times
    // out, and never settles that attempt (nor the step waiting for it, which stops there).
    if (this.client && this.client === this.connecting) void this.disconnect();
    else await this.disconnect();
  }

  private async unlisten(subscription: Subscription): Promise<void> {
    if (!this.subscriptions.delete(subscription)) return;
    subscription.settle();
    await this.sync(async () => {
      // The last listener takes the connection with it; a channel nobody else hears is dropped.
      if (this.subscriptions.size === 0) await this.disconnect();
      else if (subscription.listening && !this.channels().has(subscription.channel)) await this.client?.query(`unlisten ${subscription.channel}`).catch(() => {});
    });
  }

  private channels(): Set<string> {
    return new Set([...this.subscriptions].map((subscription) => subscription.channel));
  }

  /** Runs `work` (by default: connect and listen for everyone not yet listening) after what is under way. */
  private sync(work: () => Promise<void> = () => this.listenAll()): Promise<void> {
    // Each step handles its own failures; one that escapes is told, and the next step still runs.
    this.syncing = this.syncing.then(work).catch((error: unknown) => this.log.error({ err: error }, "notification connection: unexpected failure"));
    return this.syncing;
  }

  private async listenAll(): Promise<void> {
    if (this.closed) return;
    const waiting = [...this.subscriptions].filter((subscription) => !subscription.listening);
    if (waiting.length === 0) return;
    let client = this.client;
    try {
      if (!client) {
        // The pool's settings, but one query at a time: LISTEN needs no pipelining (database.ts).
        client = this.client = new pg.Client({ connectionTimeoutMillis: CONNECT_TIMEOUT_MS, ...this.connection, pipeline: false });
        const made = client;
        made.on("error", (error) => this.lost(made, error));
        made.on("end", () => this.lost(made, null));
        made.on("notification", ({ channel, payload }) => {
          if (!payload) return;
          for (const subscription of this.subscriptions) if (subscription.channel === channel) subscription.handlers.onMessage(payload);
        });
        this.connecting = made;
        try {
          await made.connect();
        } finally {
          if (this.connecting === made) this.connecting = null;
        }
      }
      // LISTEN on a channel already listened to changes nothing.
      await client.query([...new Set(waiting.map((subscription) => subscription.channel))].map((channel) => `listen ${channel}`).join("; "));
      for (const subscription of waiting) {
        // Lost meanwhile: everyone listens again on the next connection.
        if (this.client !== client) return;
        // Closed meanwhile: no longer this connection's concern.
        if (!this.subscriptions.has(subscription)) continue;
        await subscription.handlers.onListening();
        subscription.listening = true;
        subscription.settle();
      }
      this.retryMs = 250;
    } catch (error) {
      for (const subscription of waiting) subscription.settle();
      if (client && this.client === client) await this.disconnect();
      this.retry(error, false);
    }
  }

  private async disconnect(): Promise<void> {
    const client = this.client;
    this.client = null;
    for (const subscription of this.subscriptions) subscription.listening = false;
    if (!client) return;
    client.removeAllListeners("end");
    client.removeAllListeners("notification");
    await client.end().catch(() => {});
  }

  /** The connection dropped (or failed): everyone listens again on a new one. */
  private lost(client: pg.Client, error: unknown): void {
    if (this.closed || this.client !== client) return;
    const wasListening = [...this.subscriptions].some((subscription) => subscription.listening);
    void this.disconnect();
    this.retry(error, wasListening);
  }

  private retry(error: unknown, wasListening: boolean): void {
    if (this.closed) return;
    if (wasListening) this.log.warn({ err: error, channels: [...this.channels()] }, "notification connection lost; reconnecting");
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.sync();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
  }
}
