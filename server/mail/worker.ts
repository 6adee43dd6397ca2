import type { Kysely } from "kysely";
import type { Engine } from "../db/database.ts";
import type { Schema } from "../db/schema.ts";
import type { Logger } from "../log.ts";
import type { Mailer, MailMessage } from "./mailer.ts";
import { markAttemptFailed, markSent, type OutboxRow, withDue } from "./outbox.ts";
import { outlived, renderMail } from "./templates/index.ts";

/** The longest wait between two attempts, however many have failed. */
const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
/** Messages one drain sends at most, so a long queue never holds a caller (a test, shutdown) for long. */
const DRAIN_LIMIT = 500;
/**
 * Messages claimed together: read in one statement, sent one after the other, and those that left
 * marked sent in one more (a crash in between sends them again, with the same Message-ID).
 */
const BATCH = 25;

export interface MailWorkerOptions {
  db: Kysely<Schema>;
  engine: Engine;
  mailer: Mailer;
  log: Logger;
  /** The sender (MAIL_FROM) and the shop's origin (links in the templates). */
  from: string;
  publicUrl: string;
  pollMs: number;
  retryBaseMs: number;
  maxAttempts: number;
  /** The clock; tests pass a fake one and call drain() themselves. */
  now?: () => number;
  /** storefront_mail_outbox_failed_total{reason}: a message given up on. */
  telemetry?: MailTelemetry;
}

/** Why a message ended `failed`: it outlived its use, or its last attempt failed. */
export type MailFailure = "expired" | "attempts_exhausted";

export interface MailTelemetry {
  mailFailed(reason: MailFailure): void;
}

/** The delay before attempt `attempts + 1`: base, 2 × base, 4 × base … up to an hour. */
export const retryDelay = (attempts: number, baseMs: number): number => Math.min(baseMs * 2 ** Math.max(0, attempts - 1), MAX_RETRY_DELAY_MS);

/**
 * Sends what the outbox holds: every due pending message, oldest first, each with its stable
 * Message-ID; failures come back after an exponential back-off and end `failed` after the last
 * attempt. `start()` polls (and `kick()` wakes it when a message was just written); tests leave it
 * stopped and call `drain()`.
 */
export class MailWorker {
  private readonly now: () => number;
  private readonly domain: string;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly options: MailWorkerOptions) {
    this.now = options.now ?? Date.now;
    this.domain = /@([^>\s]+)>?\s*$/.exec(options.from)?.[1] ?? "storefront.invalid";
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.kick(), this.options.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Drains soon, without waiting (after a message was written). Errors are logged. */
  kick(): void {
    if (!this.timer) return; // not started (a test drives it with drain())
    this.drain().catch((error: unknown) => this.options.log.error({ err: error }, "mail worker: drain failed; will retry"));
  }

  /**
   * Sends every message due now, one at a time; resolves with how many were sent. A call while a
   * drain runs waits for it and then drains again, so nothing written meanwhile waits for the poll.
   */
  async drain(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      let sent = 0;
      try {
        do {
          this.again = false;
          sent += await this.drainOnce();
        } while (this.again && !this.stopped);
      } finally {
        this.running = null;
      }
      return sent;
    })();
    return this.running;
  }

  /** Stops polling and waits for the message in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  private async drainOnce(): Promise<number> {
    let sent = 0;
    for (let attempted = 0; attempted < DRAIN_LIMIT && !this.stopped; ) {
      const limit = Math.min(BATCH, DRAIN_LIMIT - attempted);
      const batch = await withDue(this.options.db, this.options.engine, { now: this.now(), limit }, (trx, rows) => this.attemptAll(trx, rows));
      if (batch === null) break;
      attempted += batch.attempted;
      sent += batch.sent;
      if (batch.attempted < limit) break; // all that was due
    }
    return sent;
  }

  /** Sends each message in turn (until stopped), records each failure, then marks the sent ones in one statement. */
  private async attemptAll(trx: Parameters<typeof markSent>[0], rows: OutboxRow[]): Promise<{ attempted: number; sent: number }> {
    const sent: OutboxRow[] = [];
    let attempted = 0;
    for (const row of rows) {
      if (this.stopped) break;
      attempted++;
      if (await this.attempt(trx, row)) sent.push(row);
    }
    await markSent(trx, sent.map((row) => row.id), this.now());
    for (const row of sent) this.options.log.info({ mail: row.id, kind: row.kind, attempts: row.attempts + 1 }, "mail sent");
    return { attempted, sent: sent.length };
  }

  /** One attempt at a message: true when it left; a failure is recorded here (a retry later, or failed for good). */
  private async attempt(trx: Parameters<typeof markSent>[0], row: OutboxRow): Promise<boolean> {
    if (outlived(row.kind, row.created, this.now())) {
      await markAttemptFailed(trx, row.id, row.attempts, "not sent: it had expired before it could be sent", null);
      this.options.log.warn({ mail: row.id, kind: row.kind, attempts: row.attempts }, "mail expired before it could be sent; given up");
      this.options.telemetry?.mailFailed("expired");
      return false;
    }
    const attempts = row.attempts + 1;
    try {
      await this.options.mailer.send(this.message(row));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const last = attempts >= this.options.maxAttempts;
      const retryAt = last ? null : this.now() + retryDelay(attempts, this.options.retryBaseMs);
      await markAttemptFailed(trx, row.id, attempts, reason, retryAt);
      const fields = { mail: row.id, kind: row.kind, attempts, error: reason };
      if (last) this.options.log.error(fields, "mail failed for good after its last attempt");
      if (last) this.options.telemetry?.mailFailed("attempts_exhausted");
      else this.options.log.warn({ ...fields, retryAt: new Date(retryAt!).toISOString() }, "mail not sent; will retry");
      return false;
    }
    return true;
  }

  /** The message of a row, the same at every attempt: its id, date, sender and content are the row's. */
  private message(row: OutboxRow): MailMessage {
    const content = renderMail(row.kind, row.payload, { publicUrl: this.options.publicUrl });
    return {
      messageId: `<${row.id}@${this.domain}>`,
      from: this.options.from,
      to: row.recipient,
      date: new Date(row.created),
      ...content,
    };
  }
}
