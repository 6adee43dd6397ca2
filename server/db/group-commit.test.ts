import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type AppDatabase, openDatabase } from "./database.ts";
import { type LogSync, SqliteGroupCommit, walSync } from "./group-commit.ts";

// Group commit on the SQLite file (group-commit.ts): what a caller is told has been written is on
// disk, a failed transaction leaves no trace beside the others of its batch, and reads outside a
// transaction see committed data only. "On disk" is checked with a connection of the test's own,
// which sees only what SQLite has committed.

let dir: string;
let file: string;
let database: AppDatabase;
let other: SqliteDatabase.Database;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-group-commit-"));
  file = path.join(dir, "test.sqlite");
  database = openDatabase({ engine: "sqlite", file });
  await sql`create table items (id integer primary key, name text not null unique)`.execute(database.db);
  other = new SqliteDatabase(file, { readonly: true });
});

afterEach(async () => {
  other.close();
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What another connection sees committed, by name. */
const committed = () => (other.prepare("select name from items order by id").all() as Array<{ name: string }>).map((row) => row.name);

const insert = (name: string) => sql`insert into items (name) values (${name})`;

/**
 * Whether `promise` has settled once everything that could run has run: promise callbacks, and the
 * immediates that batch the commits (group-commit.ts) with those they queue, until none is left. A
 * write or read still waiting then waits for something the test holds (a transaction, a sync),
 * whatever the speed of the machine.
 */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  vi.useFakeTimers({ toFake: ["setImmediate", "clearImmediate"] });
  try {
    await vi.runAllTimersAsync();
  } finally {
    vi.useRealTimers();
  }
  return done;
}

describe("SQLite group commit", () => {
  it("answers a write or a transaction only once it is committed", async () => {
    const seenWhenAnswered: string[][] = [];
    await insert("alone").execute(database.db).then(() => seenWhenAnswered.push(committed()));
    await database.db
      .transaction()
      .execute(async (trx) => {
        await insert("first").execute(trx);
        await insert("second").execute(trx);
      })
      .then(() => seenWhenAnswered.push(committed()));
    expect(seenWhenAnswered).toEqual([["alone"], ["alone", "first", "second"]]);
  });

  it("commits the writers waiting together at once, and answers none of them before", async () => {
    const names = Array.from({ length: 20 }, (_, i) => `shopper ${i}`);
    const seenByFirstAnswer = await Promise.race(
      names.map((name) => database.db.transaction().execute((trx) => insert(name).execute(trx)).then(() => committed())),
    );
    expect(seenByFirstAnswer).toEqual(names);
  });

  it("undoes a failed transaction without touching the others of its batch", async () => {
    const outcomes = await Promise.allSettled([
      database.db.transaction().execute((trx) => insert("kept before").execute(trx)),
      database.db.transaction().execute(async (trx) => {
        await insert("undone").execute(trx);
        throw new Error("refused");
      }),
      // A duplicate: the statement fails inside the transaction.
      database.db.transaction().execute(async (trx) => {
        await insert("undone too").execute(trx);
        await insert("kept before").execute(trx);
      }),
      insert("kept after").execute(database.db),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "rejected", "fulfilled"]);
    expect(committed()).toEqual(["kept before", "kept after"]);
    expect(await database.db.selectFrom("items" as never).select(sql<string>`name`.as("name")).execute()).toEqual([{ name: "kept before" }, { name: "kept after" }]);
  });

  it("ends a batch whose only transaction failed: reads and writes after it go on", async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await insert("undone").execute(trx);
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(await database.db.selectFrom("items" as never).select(sql<string>`name`.as("name")).execute()).toEqual([]);
    // Another process (a second instance, the admin command) can take SQLite's write lock again.
    other.close();
    other = new SqliteDatabase(file, { timeout: 1_000 });
    other.prepare("insert into items (name) values ('elsewhere')").run();
    await insert("here").execute(database.db);
    expect(committed()).toEqual(["elsewhere", "here"]);
  });

  it("lets a read outside a transaction see committed data only, after the writes under way", async () => {
    let finish = () => {};
    const held = new Promise<void>((resolve) => (finish = resolve));
    let inside = () => {};
    const underWay = new Promise<void>((resolve) => (inside = resolve));
    const transaction = database.db.transaction().execute(async (trx) => {
      await insert("in flight").execute(trx);
      // Inside, the transaction reads its own write.
      expect((await sql<{ n: number }>`select count(*) as n from items`.execute(trx)).rows[0]!.n).toBe(1);
      inside();
      await held;
    });
    await underWay;
    let answered = false;
    const read = sql<{ n: number }>`select count(*) as n from items`.execute(database.db).then((result) => {
      answered = true;
      return { n: result.rows[0]!.n, onDisk: committed() };
    });
    expect(await settled(read)).toBe(false);
    expect(answered).toBe(false);
    finish();
    await transaction;
    expect(await read).toEqual({ n: 1, onDisk: ["in flight"] });
  });

  it("runs what waits for a commit once the change can be read", async () => {
    const readThen = new Promise<number>((resolve, reject) => {
      void database.db.transaction().execute(async (trx) => {
        await insert("announced").execute(trx);
        database.afterCommit(() => {
          sql<{ n: number }>`select count(*) as n from items`.execute(database.db).then((result) => resolve(result.rows[0]!.n), reject);
        });
      });
    });
    expect(await readThen).toBe(1);
  });

  it("refuses work after close", async () => {
    await insert("last").execute(database.db);
    await database.close();
    expect(committed()).toEqual(["last"]);
    await expect(insert("too late").execute(database.db)).rejects.toThrow();
    await expect(sql`select 1`.execute(database.db)).rejects.toThrow();
    database = openDatabase({ engine: "sqlite", file });
  });
});

// The log's fsync runs off the main thread (walSync): with a sync the test holds, nothing is
// answered, and no read shows anything, before the sync has ended.
describe("SQLite group commit, the log's sync", () => {
  let writer: SqliteDatabase.Database;
  let reader: SqliteDatabase.Database;
  let db: Kysely<never>;
  let syncs: Array<{ finish: (error?: Error) => void }>;
  let closed: boolean;

  beforeEach(async () => {
    // The suite above opened `file` through openDatabase; this one drives the driver itself.
    await database.close();
    writer = new SqliteDatabase(file);
    writer.pragma("journal_mode = WAL");
    writer.pragma("synchronous = NORMAL");
    reader = new SqliteDatabase(file, { readonly: true });
    syncs = [];
    closed = false;
    const held: LogSync = {
      sync: () => new Promise<void>((resolve, reject) => syncs.push({ finish: (error) => (error ? reject(error) : resolve()) })),
      close: async () => void (closed = true),
    };
    db = new Kysely<never>({ dialect: new SqliteGroupCommit(writer, reader, held).dialect() });
  });

  afterEach(async () => {
    for (const sync of syncs) sync.finish();
    await db.destroy();
    database = openDatabase({ engine: "sqlite", file });
  });

  it("answers a write once its log is synced, and shows it to no read before", async () => {
    const write = insert("durable").execute(db);
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    // Committed (another connection sees it) but not yet on disk: the writer and a read wait.
    expect(committed()).toEqual(["durable"]);
    const read = sql<{ n: number }>`select count(*) as n from items`.execute(db);
    expect(await settled(write)).toBe(false);
    expect(await settled(read)).toBe(false);
    syncs[0]!.finish();
    await write;
    expect((await read).rows).toEqual([{ n: 1 }]);
  });

  it("commits nothing while a sync is under way, then the writes that waited together", async () => {
    const first = insert("first").execute(db);
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    const more = ["second", "third", "fourth"].map((name) => db.transaction().execute((trx) => insert(name).execute(trx)));
    expect(await settled(Promise.all(more))).toBe(false);
    expect(committed()).toEqual(["first"]);
    expect(syncs).toHaveLength(1);
    syncs[0]!.finish();
    await first;
    // One commit and one sync for the three that waited.
    await vi.waitFor(() => expect(syncs).toHaveLength(2));
    expect(committed()).toEqual(["first", "second", "third", "fourth"]);
    expect(await settled(Promise.all(more))).toBe(false);
    syncs[1]!.finish();
    await Promise.all(more);
  });

  it("fails the writes of a batch whose sync failed, and goes on with the next", async () => {
    const lost = insert("unsure").execute(db);
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    syncs[0]!.finish(new Error("EIO: i/o error, fsync"));
    await expect(lost).rejects.toThrow("EIO");
    const next = insert("next").execute(db);
    await vi.waitFor(() => expect(syncs).toHaveLength(2));
    syncs[1]!.finish();
    await next;
  });

  it("waits for the sync under way before closing, and closes the log", async () => {
    const write = insert("last").execute(db);
    await vi.waitFor(() => expect(syncs).toHaveLength(1));
    const destroyed = db.destroy();
    expect(await settled(destroyed)).toBe(false);
    syncs[0]!.finish();
    await destroyed;
    await write;
    expect(closed).toBe(true);
    db = new Kysely<never>({ dialect: new SqliteGroupCommit(new SqliteDatabase(file), new SqliteDatabase(file, { readonly: true }), { sync: async () => {}, close: async () => {} }).dialect() });
  });
});

describe("walSync", () => {
  it("syncs the database's log file, opened once", async () => {
    await insert("on disk").execute(database.db);
    const opened: string[] = [];
    const open = fs.promises.open;
    const spy = vi.spyOn(fs.promises, "open").mockImplementation(async (name, flags) => {
      opened.push(String(name));
      return open(name, flags);
    });
    try {
      const log = walSync(file);
      await log.sync();
      await log.sync();
      await log.close();
    } finally {
      spy.mockRestore();
    }
    // The log, and its folder once (the log's name).
    expect(opened).toEqual([`${file}-wal`, dir]);
  });

  it("is what a database file opened by openDatabase syncs with, SQLite syncing at checkpoints only", async () => {
    // 1 is NORMAL; the commit's own sync is walSync's, which the test above watches.
    expect((await sql<{ synchronous: number }>`pragma synchronous`.execute(database.db)).rows).toEqual([{ synchronous: 1 }]);
  });
});
