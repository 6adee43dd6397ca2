import path from "node:path";
import type { Config } from "../config.ts";
import type { AppDatabase } from "../db/database.ts";
import type { Logger } from "../log.ts";
import { FileMailer } from "./file-mailer.ts";
import type { Mailer } from "./mailer.ts";
import { SmtpMailer } from "./smtp-mailer.ts";
import { type MailTelemetry, MailWorker } from "./worker.ts";

export type MailConfig = Pick<
  Config,
  "DATA_DIR" | "PUBLIC_URL" | "SMTP_URL" | "MAIL_FROM" | "MAIL_POLL_MS" | "MAIL_RETRY_BASE_MS" | "MAIL_MAX_ATTEMPTS"
>;

export interface MailOptions {
  /** The clock of the worker (tests: a fake one). */
  now?: () => number;
  /** True: no polling; the test calls `worker.drain()` itself. */
  manual?: boolean;
  /** Another adapter (tests). */
  mailer?: Mailer;
}

/** Mail as the services hold it: the adapter, and the worker that empties the outbox into it. */
export interface MailService {
  readonly mailer: Mailer;
  readonly worker: MailWorker;
  /** Stops the worker (after the message in flight), then the adapter. */
  close(): Promise<void>;
}

/**
 * SMTP when SMTP_URL is set; otherwise .eml files under DATA_DIR/mail/. Says which, and where,
 * never SMTP_URL itself (it holds the password).
 */
export function createMailer(config: MailConfig, log: Logger): Mailer {
  if (config.SMTP_URL) {
    log.info({ mailer: "smtp" }, "mail: sending through SMTP_URL");
    return new SmtpMailer(config.SMTP_URL);
  }
  const directory = path.join(config.DATA_DIR, "mail");
  log.info({ directory }, "mail: no SMTP_URL, so every message is written as an .eml file");
  return new FileMailer(directory, log);
}

export function createMail(config: MailConfig, log: Logger, database: AppDatabase, options: MailOptions = {}, telemetry?: MailTelemetry): MailService {
  const mailer = options.mailer ?? createMailer(config, log);
  const worker = new MailWorker({
    db: database.db,
    engine: database.engine,
    mailer,
    log,
    from: config.MAIL_FROM,
    publicUrl: config.PUBLIC_URL,
    pollMs: config.MAIL_POLL_MS,
    retryBaseMs: config.MAIL_RETRY_BASE_MS,
    maxAttempts: config.MAIL_MAX_ATTEMPTS,
    now: options.now,
    telemetry,
  });
  if (!options.manual) worker.start();
  return {
    mailer,
    worker,
    async close() {
      await worker.stop();
      mailer.close();
    },
  };
}
