import { sql } from "kysely";
import type { AppDatabase } from "../db/database.ts";
import type { Listening } from "../db/listener.ts";
import type { Logger } from "../log.ts";

const CHANNEL = "storefront_session_revocations";

/**
 * Sessions that have ended (signed out, replaced, revoked) while a copy of their signed session
 * cache cookie may still be accepted somewhere. better-auth checks that cookie by its signature
 * alone, for its whole lifetime; this list is what every instance checks it against, in memory, so
 * live sessions keep the cache's speed and an ended one is refused at once.
 *
 * Kept in the database (an instance that starts later loads it) and announced to every instance:
 * PostgreSQL LISTEN/NOTIFY, or in-process on SQLite (one instance). An entry lasts `keepMs`, the
 * longest a session cache cookie issued before the revocation can live (plus clock skew).
 */
export class SessionRevocations {
  private readonly revoked = new Map<string, number>();
  private readonly listener: Listening | null;

  constructor(
    private readonly database: AppDatabase,
    private readonly keepMs: number,
    log: Logger,
    private readonly now: () => number = Date.now,
  ) {
    const { driver } = database;
    this.listener =
      driver.engine === "postgres"
        ? driver.notifications.listen(CHANNEL, { onMessage: (payload) => this.onMessage(payload), onListening: () => this.load() })
        : null;
  }

  /** Resolves once revocations made anywhere from now on reach this instance. */
  async ready(): Promise<void> {
    if (this.listener) await this.listener.ready;
    else await this.load();
  }

  isRevoked(sessionId: string): boolean {
    const until = this.revoked.get(sessionId);
    if (until === undefined) return false;
    if (this.now() < until) return true;
    this.revoked.delete(sessionId);
    return false;
  }

  /** Ends `sessionId` on every instance: written, then announced (NOTIFY is delivered on commit). */
  async revoke(sessionId: string): Promise<void> {
    const until = this.now() + this.keepMs;
    this.revoked.set(sessionId, until);
    const { db } = this.database;
    await db.deleteFrom("session_revocations").where("until", "<", this.now()).execute();
    await db
      .insertInto("session_revocations")
      .values({ session_id: sessionId, until })
      .onConflict((oc) => oc.column("session_id").doUpdateSet({ until }))
      .execute();
    if (this.database.engine === "postgres") await sql`select pg_notify(${CHANNEL}, ${JSON.stringify({ sessionId, until })})`.execute(db);
  }

  async close(): Promise<void> {
    await this.listener?.close();
  }

  private onMessage(payload: string) {
    try {
      const { sessionId, until } = JSON.parse(payload) as { sessionId: unknown; until: unknown };
      if (typeof sessionId === "string" && typeof until === "number") this.revoked.set(sessionId, until);
    } catch {
      // Not ours, or garbled: nothing to refuse.
    }
  }

  /** Every revocation still in force (at start, and after a lost notification connection). */
  private async load(): Promise<void> {
    const rows = await this.database.db.selectFrom("session_revocations").selectAll().where("until", ">", this.now()).execute();
    for (const row of rows) this.revoked.set(row.session_id, Number(row.until));
  }
}
