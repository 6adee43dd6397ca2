import { randomUUID } from "node:crypto";
import { type Kysely, type Selectable, sql, type Transaction } from "kysely";
import { decodeCursor, olderThan, pageOf } from "../db/cursor.ts";
import { prepared } from "../db/prepared.ts";
import type { Engine } from "../db/database.ts";
import type { MailOutboxTable, Schema } from "../db/schema.ts";
import { forgetAfterSending, type MailKind, type PayloadOf } from "./templates/index.ts";

type Db = Kysely<Schema> | Transaction<Schema>;

export type OutboxRow = Omit<Selectable<MailOutboxTable>, "next_attempt_at" | "created" | "sent_at"> & {
  next_attempt_at: number;
  created: number;
  sent_at: number | null;
};

/**
 * Writes a message to the outbox, in the caller's transaction. One message per kind and key
 * (e.g. per order): a second call for the same key changes nothing. True when this call wrote it.
 */
export async function enqueueMail<K extends MailKind>(
  db: Db,
  mail: { kind: K; key: string; recipient: string; payload: PayloadOf<K>; now: number },
): Promise<boolean> {
  const result = await db
    .insertInto("mail_outbox")
    .values({
      id: randomUUID(),
      kind: mail.kind,
      dedupe_key: mail.key,
      recipient: mail.recipient,
      payload: JSON.stringify(mail.payload),
      status: "pending",
      attempts: 0,
      next_attempt_at: mail.now,
      last_error: null,
      created: mail.now,
      sent_at: null,
    })
    .onConflict((oc) => oc.columns(["kind", "dedupe_key"]).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Writes a message to the outbox addressed to a shop account's email as it is now, read by the
 * same statement (`insert … select … from "user"`); nothing when no such account or the message
 * exists already (one per kind and key, as enqueueMail). It answers nothing: in a transaction on
 * PostgreSQL it goes out with the transaction's next statement (`withNext`, no round trip of its own).
 */
export async function enqueueMailToUser<K extends MailKind>(db: Db, mail: { kind: K; key: string; userId: string; payload: PayloadOf<K>; now: number }): Promise<void> {
  await insertMailToUser.withNext(db, { id: randomUUID(), kind: mail.kind, key: mail.key, userId: mail.userId, payload: JSON.stringify(mail.payload), now: mail.now });
}

const insertMailToUser = prepared((db: Kysely<Schema>, p: { id: string; kind: string; key: string; userId: string; payload: string; now: number }) =>
  db
    .insertInto("mail_outbox")
    .columns(["id", "kind", "dedupe_key", "recipient", "payload", "status", "attempts", "next_attempt_at", "last_error", "created", "sent_at"])
    .expression((eb) =>
      eb
        .selectFrom("user")
        .select([
          sql.val(p.id).as("id"),
          sql.val(p.kind).as("kind"),
          sql.val(p.key).as("dedupe_key"),
          "user.email",
          sql.val(p.payload).as("payload"),
          sql.lit("pending").as("status"),
          sql.lit(0).as("attempts"),
          sql.val(p.now).as("next_attempt_at"),
          sql.lit(null).as("last_error"),
          sql.val(p.now).as("created"),
          sql.lit(null).as("sent_at"),
        ])
        .where("user.id", "=", p.userId),
    )
    .onConflict((oc) => oc.columns(["kind", "dedupe_key"]).doNothing()),
);

/** How many messages of `kind` went to `recipient` since `since` (for per-address limits). */
export async function countRecent(db: Db, kind: MailKind, recipient: string, since: number): Promise<number> {
  const row = await db
    .selectFrom("mail_outbox")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("kind", "=", kind)
    .where("recipient", "=", recipient)
    .where("created", ">=", since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Runs `handle` on the oldest due pending messages, at most `limit` of them, and returns what it
 * returned (null when nothing is due). On PostgreSQL the rows stay locked (`FOR UPDATE SKIP
 * LOCKED`) until `handle` has sent them and recorded the outcomes, so other instances skip them,
 * and a crash releases them at once for the next attempt. SQLite has one process and one worker:
 * no lock is needed.
 */
export async function withDue<T>(
  db: Kysely<Schema>,
  engine: Engine,
  { now, limit }: { now: number; limit: number },
  handle: (trx: Db, rows: OutboxRow[]) => Promise<T>,
): Promise<T | null> {
  const due = (trx: Db) => (engine === "postgres" ? dueLocked : dueUnlocked)(trx, { now, limit }).then((result) => result.rows);
  const run = async (trx: Db) => {
    const rows = await due(trx);
    return rows.length > 0 ? handle(trx, rows.map(toRow)) : null;
  };
  return engine === "postgres" ? db.transaction().execute(run) : run(db);
}

/**
 * Every column of a message, named: a statement selecting `*` is not prepared on PostgreSQL (a
 * migration may change its result type), and the worker claims due messages every few seconds
 * on every instance.
 */
const OUTBOX_COLUMNS = ["id", "kind", "dedupe_key", "recipient", "payload", "status", "attempts", "next_attempt_at", "last_error", "created", "sent_at"] as const satisfies ReadonlyArray<keyof MailOutboxTable>;

/** The oldest due pending messages, at most `limit`. */
const dueMessages = (db: Kysely<Schema>, p: { now: number; limit: number }) =>
  db.selectFrom("mail_outbox").select(OUTBOX_COLUMNS).where("status", "=", "pending").where("next_attempt_at", "<=", p.now).orderBy("next_attempt_at").orderBy("id").limit(p.limit);
const dueUnlocked = prepared(dueMessages);
/** PostgreSQL: locked until the claim's transaction ends; rows another instance holds are passed over. */
const dueLocked = prepared((db: Kysely<Schema>, p: { now: number; limit: number }) => dueMessages(db, p).forUpdate().skipLocked());

/**
 * Marks messages sent, in one statement: each one's attempt counted; a payload that holds a secret
 * (a reset token) is dropped once it has left.
 */
export async function markSent(db: Db, ids: string[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("mail_outbox")
    .set({
      status: "sent",
      sent_at: now,
      attempts: sql<number>`attempts + 1`,
      last_error: null,
      payload: sql<string>`case when kind in (${sql.join([...forgetAfterSending])}) then '{}' else payload end`,
    })
    .where("id", "in", ids)
    .execute();
}

/** Records a failed attempt: back to pending until `retryAt`, or `failed` for good when it is null. */
export async function markAttemptFailed(db: Db, id: string, attempts: number, error: string, retryAt: number | null): Promise<void> {
  await db
    .updateTable("mail_outbox")
    .set({ attempts, last_error: error.slice(0, 2_000), ...(retryAt === null ? { status: "failed" } : { next_attempt_at: retryAt }) })
    .where("id", "=", id)
    .execute();
}

/** The outbox, newest first. */
export async function listOutbox(db: Db, limit: number): Promise<OutboxRow[]> {
  const rows = await db.selectFrom("mail_outbox").selectAll().orderBy("created", "desc").orderBy("id").limit(limit).execute();
  return rows.map(toRow);
}

export const OUTBOX_STATUSES = ["pending", "sent", "failed"] as const;

/** A message as the back office's /admin/mail lists it: never its payload (a reset token is a secret). */
export type OutboxEntry = Pick<OutboxRow, "id" | "kind" | "recipient" | "status" | "attempts" | "next_attempt_at" | "last_error" | "created" | "sent_at">;

const ENTRY_COLUMNS = ["id", "kind", "recipient", "status", "attempts", "next_attempt_at", "last_error", "created", "sent_at"] as const;

export type OutboxPage = { ok: true; messages: OutboxEntry[]; next: string | null } | { ok: false; message: string };

/** The back office's view of the outbox: newest first, a page at a time, by status. */
export async function outboxPage(db: Db, query: { status?: OutboxRow["status"]; limit: number; before?: string }): Promise<OutboxPage> {
  const cursor = query.before === undefined ? null : decodeCursor(query.before);
  if (query.before !== undefined && !cursor) return { ok: false, message: "before must be a cursor from a previous page." };
  let select = db.selectFrom("mail_outbox").select(ENTRY_COLUMNS);
  if (query.status) select = select.where("status", "=", query.status);
  if (cursor) select = select.where(olderThan(cursor, "created", "id"));
  const rows = await select.orderBy("created", "desc").orderBy("id", "desc").limit(query.limit + 1).execute();
  const page = pageOf(rows, query.limit, (row) => ({ at: Number(row.created), id: row.id }));
  return {
    ok: true,
    next: page.next,
    messages: page.rows.map(toRow),
  };
}

/** Messages keyed by any of `keys` (an order's confirmation, its refunds' mails), oldest first: an order's timeline. */
export async function mailFor(db: Db, keys: string[]): Promise<OutboxEntry[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom("mail_outbox")
    .select(ENTRY_COLUMNS)
    .where("dedupe_key", "in", keys)
    .where("kind", "in", ["order_confirmation", "refund"])
    .orderBy("created")
    .execute();
  return rows.map(toRow);
}

/** Times as numbers (PostgreSQL's driver reads bigints as strings). */
function toRow<Row extends Pick<Selectable<MailOutboxTable>, "next_attempt_at" | "created" | "sent_at">>(
  row: Row,
): Omit<Row, "next_attempt_at" | "created" | "sent_at"> & { next_attempt_at: number; created: number; sent_at: number | null } {
  return {
    ...row,
    next_attempt_at: Number(row.next_attempt_at),
    created: Number(row.created),
    sent_at: row.sent_at === null ? null : Number(row.sent_at),
  };
}

/** Messages still to be sent (due now or waiting for a retry): the outbox's depth. */
export async function pendingCount(db: Db): Promise<number> {
  const row = await db.selectFrom("mail_outbox").select((eb) => eb.fn.countAll<number | string>().as("n")).where("status", "=", "pending").executeTakeFirst();
  return Number(row?.n ?? 0);
}
