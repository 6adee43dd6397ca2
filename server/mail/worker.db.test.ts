import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { startSmtpServer } from "../../test/support/smtp-server.ts";
import type { AppDatabase } from "../db/database.ts";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { testApp } from "../../test/support/app.ts";
import { memoryLogger } from "../../test/support/logger.ts";
import { parseMetrics, sampleValue } from "../../test/support/prometheus-text.ts";
import type { MailMessage } from "./mailer.ts";
import { enqueueMail, listOutbox } from "./outbox.ts";
import { MailWorker } from "./worker.ts";

const BASE_MS = 60_000;
const START = Date.UTC(2026, 10, 24, 10, 0, 0);
const PAYLOAD = { orderId: "pi_mailtest", amount: 1999, created: START, lines: [{ title: "A <b>bold</b> mug", amount: 1, priceCents: 1999 }] };


describe.each(testEngines())("the mail worker on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function setup(env: Record<string, string>) {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const memory = memoryLogger();
    const clock = { now: START };
    const { services } = await testApp({
      database,
      log: memory.log,
      env: { MAIL_RETRY_BASE_MS: String(BASE_MS), MAIL_MAX_ATTEMPTS: "3", ...env },
      mail: { now: () => clock.now },
    });
    cleanup(() => services.mail.close());
    const metric = async (name: string, labels: Record<string, string> = {}) => sampleValue(parseMetrics(await services.metrics.registry.metrics()), name, labels);
    await enqueueMail(database.db, { kind: "order_confirmation", key: PAYLOAD.orderId, recipient: "ada@example.com", payload: PAYLOAD, now: clock.now });
    return { database, worker: services.mail.worker, clock, records: memory.records, metric };
  }

  const row = async (database: AppDatabase) => (await listOutbox(database.db, 10))[0]!;

  it("retries with exponential back-off while SMTP is down, and sends once when it is back", async () => {
    const smtp = await startSmtpServer({ password: "s3cret-pass" });
    cleanup(smtp.close);
    smtp.down = true;
    const { database, worker, clock, records } = await setup({ SMTP_URL: smtp.url });
    expect(await worker.drain()).toBe(0);
    expect(await row(database)).toMatchObject({ status: "pending", attempts: 1, next_attempt_at: START + BASE_MS, last_error: "Connection closed unexpectedly" });
    clock.now += BASE_MS - 1; // not due yet: no attempt
    expect(await worker.drain()).toBe(0);
    expect((await row(database)).attempts).toBe(1);
    clock.now += 1;
    expect(await worker.drain()).toBe(0);
    // The second failure waits twice as long.
    expect(await row(database)).toMatchObject({ status: "pending", attempts: 2, next_attempt_at: clock.now + 2 * BASE_MS });

    smtp.down = false;
    clock.now += 2 * BASE_MS;
    expect(await worker.drain()).toBe(1);
    expect(await worker.drain()).toBe(0);
    expect(smtp.accepted.map((m) => m.subject)).toEqual(["Your Storefront order pi_mailtest"]);
    expect(await row(database)).toMatchObject({ status: "sent", attempts: 3, sent_at: clock.now, last_error: null });
    expect(records.filter((r) => r.msg === "mail not sent; will retry")).toHaveLength(2);
    // SMTP_URL holds a password: it appears in no log line.
    expect(JSON.stringify(records)).not.toContain("s3cret-pass");
  });

  it("resends the same message (same Message-ID and date) after a refusal, and ends failed with its last error, logged", async () => {
    const smtp = await startSmtpServer();
    cleanup(smtp.close);
    smtp.behaviour = "refuse";
    const { database, worker, clock, records, metric } = await setup({ SMTP_URL: smtp.url });
    expect(await metric("storefront_mail_outbox_depth")).toBe(1);
    await worker.drain();
    clock.now += BASE_MS;
    await worker.drain();
    clock.now += 2 * BASE_MS;
    await worker.drain();
    clock.now += 100 * BASE_MS;
    expect(await worker.drain()).toBe(0); // failed for good: no fourth attempt
    expect(smtp.received).toHaveLength(3);
    expect(new Set(smtp.received.map((m) => m.messageId)).size).toBe(1);
    expect(new Set(smtp.received.map((m) => m.date?.toISOString()))).toEqual(new Set([new Date(START).toISOString()]));
    expect(smtp.accepted).toHaveLength(0);
    const failed = await row(database);
    expect(failed).toMatchObject({ status: "failed", attempts: 3, last_error: expect.stringMatching(/451/) });
    const logged = records.find((r) => r.msg === "mail failed for good after its last attempt");
    expect(logged).toMatchObject({ level: 50, mail: failed.id, kind: "order_confirmation", attempts: 3, error: expect.stringMatching(/451/) });
    expect(await metric("storefront_mail_outbox_failed_total", { reason: "attempts_exhausted" })).toBe(1);
    expect(await metric("storefront_mail_outbox_depth")).toBe(0);
  });

  it("gives up a reset mail that could not leave before its link expired", async () => {
    const smtp = await startSmtpServer();
    cleanup(smtp.close);
    smtp.down = true;
    const { database, worker, clock, metric } = await setup({ SMTP_URL: smtp.url, MAIL_MAX_ATTEMPTS: "10" });
    await enqueueMail(database.db, { kind: "password_reset", key: "k1", recipient: "ada@example.com", payload: { token: "t1", validMinutes: 15 }, now: clock.now });
    await worker.drain();
    smtp.down = false;
    clock.now += 15 * 60 * 1000 + 1;
    expect(await worker.drain()).toBe(1); // the order confirmation, not the reset link
    expect(smtp.accepted.map((m) => m.subject)).toEqual(["Your Storefront order pi_mailtest"]);
    const reset = (await listOutbox(database.db, 10)).find((r) => r.kind === "password_reset")!;
    expect(reset).toMatchObject({ status: "failed", last_error: "not sent: it had expired before it could be sent" });
    expect(await metric("storefront_mail_outbox_failed_total", { reason: "expired" })).toBe(1);
  });

  it("claims due messages in batches: 60 messages sent with a handful of statements, a reset link's token dropped once sent", async () => {
    let statements = 0;
    // Counts every statement run, in and out of transactions, BEGIN and COMMIT aside: on SQLite
    // through the driver's tracing hook (which hears BEGIN and COMMIT without statement text), on
    // PostgreSQL as pg's clients are given them (its queries are traced by OpenTelemetry's pg
    // instrumentation, not by that hook).
    const database = await freshDatabase(engine, { trace: (_name, attributes, run) => ("db.query.text" in attributes && statements++, run()) });
    cleanup(database.drop);
    if (engine === "postgres") {
      const original = pg.Client.prototype.query as (...args: unknown[]) => unknown;
      const query = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
        const text = typeof args[0] === "string" ? args[0] : ((args[0] as { text?: string }).text ?? "");
        if (!/^\s*(begin|commit|rollback)\b/i.test(text)) statements++;
        return original.apply(this, args);
      } as never);
      cleanup(async () => query.mockRestore());
    }
    for (let i = 0; i < 59; i++) await enqueueMail(database.db, { kind: "order_confirmation", key: `pi_${i}`, recipient: `shopper${i}@example.com`, payload: { ...PAYLOAD, orderId: `pi_${i}` }, now: START });
    await enqueueMail(database.db, { kind: "password_reset", key: "k1", recipient: "ada@example.com", payload: { token: "t1", validMinutes: 15 }, now: START });
    const sent: MailMessage[] = [];
    const mailer = { send: async (message: MailMessage) => void sent.push(message), close: () => {} };
    const worker = new MailWorker({ db: database.db, engine: database.engine, mailer, log: memoryLogger().log, from: "Storefront <no-reply@shop.example>", publicUrl: "https://shop.example", pollMs: 1_000, retryBaseMs: BASE_MS, maxAttempts: 3, now: () => START });
    statements = 0;
    expect(await worker.drain()).toBe(60);
    expect(new Set(sent.map((message) => message.to)).size).toBe(60);
    // Three batches of at most 25, each one read and one update: six, where one message at a time took two each.
    expect(statements).toBe(6);
    const rows = await listOutbox(database.db, 100);
    expect(rows.every((row) => row.status === "sent" && row.attempts === 1 && row.sent_at === START)).toBe(true);
    expect(rows.find((row) => row.kind === "password_reset")!.payload).toBe("{}");
    expect(rows.find((row) => row.dedupe_key === "pi_0")!.payload).toContain("pi_0");
    expect(await worker.drain()).toBe(0);
  });

  it("writes each message as an .eml file under DATA_DIR/mail and logs recipient, subject and file when no SMTP_URL is set", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-mail-"));
    cleanup(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const { worker, records } = await setup({ DATA_DIR: dataDir, PUBLIC_URL: "https://shop.example" });
    expect(await worker.drain()).toBe(1);
    const files = fs.readdirSync(path.join(dataDir, "mail"));
    expect(files).toHaveLength(1);
    const file = path.join(dataDir, "mail", files[0]!);
    const mail = await simpleParser(fs.readFileSync(file));
    expect(mail.subject).toBe("Your Storefront order pi_mailtest");
    expect(mail.from?.text).toBe('"Storefront" <no-reply@shop.example>');
    expect(mail.messageId).toMatch(/@shop\.example>$/);
    expect(mail.text).toContain("See your orders: https://shop.example/orders");
    // The title is escaped in the HTML part, not interpreted.
    expect(mail.html).toContain("A &lt;b&gt;bold&lt;/b&gt; mug");
    expect(records.find((r) => r.msg === "mail written to the local outbox")).toMatchObject({
      to: "ada@example.com",
      subject: "Your Storefront order pi_mailtest",
      file,
    });
  });
});
