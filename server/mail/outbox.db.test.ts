import { afterEach, describe, expect, inject, it } from "vitest";
import { countedPostgres } from "../../test/support/turn-counter.ts";
import { enqueueMail, markSent, withDue } from "./outbox.ts";

// The mail worker claims due messages every few seconds on every instance: on PostgreSQL its claim
// is a prepared statement, parsed once per connection, as a checkout's statements are.
const url = inject("postgresUrl");

describe.skipIf(!url)("the mail outbox's claim on PostgreSQL", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  it("hands over every column of the due messages, and is parsed only once per connection", async () => {
    const { database, relay } = await countedPostgres("outbox", 1, cleanups);
    const now = Date.now();
    for (const key of ["a", "b"]) {
      await enqueueMail(database.db, { kind: "password_reset", key, recipient: `${key}@example.com`, payload: { token: `token-${key}`, validMinutes: 15 }, now });
    }
    const claim = () =>
      withDue(database.db, "postgres", { now, limit: 1 }, async (trx, rows) => {
        await markSent(trx, rows.map((row) => row.id), now);
        return rows;
      });

    const [first] = (await claim())!;
    expect(first).toEqual({
      id: expect.any(String),
      kind: "password_reset",
      dedupe_key: expect.stringMatching(/^[ab]$/),
      recipient: expect.stringMatching(/^[ab]@example\.com$/),
      payload: expect.stringMatching(/^\{"token":"token-[ab]","validMinutes":15\}$/),
      status: "pending",
      attempts: 0,
      next_attempt_at: now,
      last_error: null,
      created: now,
      sent_at: null,
    });
    const parsedBefore = relay.parsed.length;
    const [second] = (await claim())!;
    expect(second!.dedupe_key).not.toBe(first!.dedupe_key);
    expect(await claim()).toBeNull();
    // The claim's statement was parsed with the first claim, and not again.
    expect(relay.parsed.slice(parsedBefore).filter((statement) => statement.includes('from "mail_outbox"'))).toEqual([]);
  });
});
