import { randomBytes } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { decodeCursor, olderThan, pageOf } from "../db/cursor.ts";
import type { Schema } from "../db/schema.ts";

type Db = Kysely<Schema> | Transaction<Schema>;

/** Who made an admin write: a signed-in admin, or the command line. */
export interface Actor {
  /** The admin's user id; null for the command line. */
  id: string | null;
  /** As people read it: the admin's email, or "npm run admin". */
  name: string;
}

export const COMMAND_LINE: Actor = { id: null, name: "npm run admin" };

export interface AuditWrite {
  actor: Actor;
  /** What was done, e.g. "product.update". */
  action: string;
  /** To what, e.g. "product:12". */
  target: string;
  /** The record before the write (absent for a creation) and after it (absent for a removal). */
  before?: unknown;
  after?: unknown;
}

export interface AuditEntry {
  id: string;
  at: number;
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

/**
 * Appends one entry. Call it with the transaction of the write it records, so the write and its
 * entry commit together or not at all: every admin write goes through a service that appends to
 * the audit log in the same transaction.
 */
export async function appendAudit(db: Db, write: AuditWrite, now = Date.now()): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      id: entryId(now),
      at: now,
      actor_id: write.actor.id,
      actor: write.actor.name,
      action: write.action,
      target: write.target,
      before: write.before === undefined ? null : JSON.stringify(write.before),
      after: write.after === undefined ? null : JSON.stringify(write.after),
    })
    .execute();
}

let sequence = 0;

/**
 * Entries are read newest first by (at, id): ids that sort in write order within a millisecond
 * (this process's sequence), then random, so two instances never collide.
 */
function entryId(now: number): string {
  sequence = (sequence + 1) % 36 ** 4;
  return `${now.toString(36).padStart(9, "0")}${sequence.toString(36).padStart(4, "0")}${randomBytes(8).toString("hex")}`;
}

export type AuditPage = { ok: true; entries: AuditEntry[]; next: string | null } | { ok: false; message: string };

/** The audit log, newest first, a page at a time; read-only (there is no way to change an entry). */
export class AuditLog {
  constructor(private readonly db: Kysely<Schema>) {}

  async page({ limit, before }: { limit: number; before?: string }): Promise<AuditPage> {
    const cursor = before === undefined ? null : decodeCursor(before);
    if (before !== undefined && !cursor) return { ok: false, message: "before must be a cursor from a previous page." };
    let query = this.db.selectFrom("audit_log").selectAll();
    if (cursor) query = query.where(olderThan(cursor, "at", "id"));
    const rows = await query.orderBy("at", "desc").orderBy("id", "desc").limit(limit + 1).execute();
    const page = pageOf(rows, limit, (row) => ({ at: Number(row.at), id: row.id }));
    return {
      ok: true,
      next: page.next,
      entries: page.rows.map((row) => ({
        id: row.id,
        at: Number(row.at),
        actor: row.actor,
        action: row.action,
        target: row.target,
        before: row.before === null ? null : (JSON.parse(row.before) as unknown),
        after: row.after === null ? null : (JSON.parse(row.after) as unknown),
      })),
    };
  }
}
