import { type CompiledQuery, type Kysely, sql, type Transaction } from "kysely";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, inject, it } from "vitest";
import { createPostgresSchema } from "../../test/support/database.ts";
import { turnCounter } from "../../test/support/turn-counter.ts";
import { type AppDatabase, openDatabase } from "./database.ts";
import type { Schema } from "./schema.ts";
import { heldAnswer, notifyAtCommit, withNext, withNextAnswered } from "./postgres-driver.ts";

// What PipelinedPostgresDriver saves is waiting: the statements and their order on the server are
// as before. A relay between the shop and PostgreSQL counts the shop's turns to speak (round trips):
// a turn is what the shop sends before PostgreSQL answers.
const url = inject("postgresUrl");

describe.skipIf(!url)("PostgreSQL driver: fewer round trips, same transactions", () => {
  let relay: Awaited<ReturnType<typeof turnCounter>>;
  let schema: Awaited<ReturnType<typeof createPostgresSchema>>;
  let database: AppDatabase;
  let listener: pg.Client;
  let heard: string[];
  const channel = `driver_test_${process.pid}`;

  beforeEach(async () => {
    schema = await createPostgresSchema("driver");
    relay = await turnCounter(new URL(url!));
    database = openDatabase({ engine: "postgres", url: relay.url, searchPath: schema.schema, maxConnections: 1 });
    await sql`create table items (id integer primary key)`.execute(database.db);
    heard = [];
    listener = new pg.Client({ connectionString: url! });
    await listener.connect();
    listener.on("notification", (message) => heard.push(message.payload ?? ""));
    await listener.query(`listen ${channel}`);
  });

  afterEach(async () => {
    await listener.end();
    await database.close();
    relay.close();
    await schema.drop();
  });

  const items = async () => (await database.db.selectFrom("items" as never).select(sql<number>`id`.as("id")).orderBy(sql`id`).execute()).map((row) => row.id);

  it("sends BEGIN with the first statement and a notification with COMMIT: two round trips for begin, insert, notify, commit", async () => {
    const turns = await relay.count(() =>
      database.db.transaction().execute(async (trx) => {
        await sql`insert into items values (1)`.execute(trx);
        await notifyAtCommit(trx, channel, { id: 1 });
      }),
    );
    expect(turns).toBe(2);
    expect(await items()).toEqual([1]);
    await expect.poll(() => heard).toEqual([JSON.stringify({ id: 1 })]);
  });

  it("sends nothing for a transaction that runs no statement", async () => {
    await database.ping(); // the pool's connection is open
    expect(await relay.count(() => database.db.transaction().execute(async () => "nothing"))).toBe(0);
  });

  it("rolls everything back when a notification held for COMMIT fails there", async () => {
    const tooLong = "x".repeat(9_000); // PostgreSQL refuses payloads of 8,000 bytes or more
    const attempt = database.db.transaction().execute(async (trx) => {
      await sql`insert into items values (2)`.execute(trx);
      await notifyAtCommit(trx, channel, tooLong);
    });
    await expect(attempt).rejects.toThrow(/payload string too long/);
    expect(await items()).toEqual([]);
    // The connection is usable again, outside any transaction.
    await database.db.transaction().execute(async (trx) => {
      await sql`insert into items values (3)`.execute(trx);
      await notifyAtCommit(trx, channel, "after");
    });
    expect(await items()).toEqual([3]);
    await expect.poll(() => heard).toEqual([JSON.stringify("after")]);
  });

  it("rolls back a transaction whose statement fails, BEGIN having gone out with it", async () => {
    const attempt = database.db.transaction().execute(async (trx) => {
      await sql`insert into items values (4)`.execute(trx);
      await sql`insert into items values (4)`.execute(trx);
    });
    await expect(attempt).rejects.toThrow(/duplicate key/);
    expect(await items()).toEqual([]);
    await sql`insert into items values (5)`.execute(database.db);
    expect(await items()).toEqual([5]);
  });

  const insertWithNext = (trx: Transaction<Schema>, id: number) => trx.executeQuery(withNext(sql`insert into items values (${id})`.compile(trx)));

  it("sends a statement marked withNext along with the next one: two round trips for begin, insert, insert, commit", async () => {
    await database.ping(); // the pool's connection is open
    const turns = await relay.count(() =>
      database.db.transaction().execute(async (trx) => {
        const first = await insertWithNext(trx, 11);
        expect(first.rows).toEqual([]);
        expect(first.numAffectedRows).toBeUndefined();
        await sql`insert into items values (12)`.execute(trx);
      }),
    );
    expect(turns).toBe(2);
    expect(await items()).toEqual([11, 12]);
    // Last in a transaction, it goes with COMMIT; with notifications held for COMMIT, before them.
    const atCommit = await relay.count(() =>
      database.db.transaction().execute(async (trx) => {
        await sql`insert into items values (13)`.execute(trx);
        await notifyAtCommit(trx, channel, "after 14");
        await insertWithNext(trx, 14);
      }),
    );
    expect(atCommit).toBe(2);
    expect(await items()).toEqual([11, 12, 13, 14]);
    await expect.poll(() => heard).toEqual([JSON.stringify("after 14")]);
  });

  it("fails the transaction at the next statement when a statement sent withNext fails, and rolls it all back", async () => {
    await sql`insert into items values (15)`.execute(database.db);
    const attempt = database.db.transaction().execute(async (trx) => {
      await sql`insert into items values (16)`.execute(trx);
      await insertWithNext(trx, 15); // a duplicate: fails on the server
      await sql`insert into items values (17)`.execute(trx);
    });
    await expect(attempt).rejects.toThrow(/duplicate key/);
    expect(await items()).toEqual([15]);
    // The same at COMMIT.
    const atCommit = database.db.transaction().execute(async (trx) => {
      await sql`insert into items values (18)`.execute(trx);
      await insertWithNext(trx, 15);
    });
    await expect(atCommit).rejects.toThrow(/duplicate key/);
    expect(await items()).toEqual([15]);
  });

  it("never sends a statement held withNext when the transaction rolls back first; outside a transaction it runs at once", async () => {
    await database.ping();
    const turns = await relay.count(() =>
      database.db
        .transaction()
        .execute(async (trx) => {
          await insertWithNext(trx, 19);
          throw new Error("changed my mind");
        })
        .catch(() => {}),
    );
    expect(turns).toBe(0);
    expect(await items()).toEqual([]);
    await database.db.executeQuery(withNext(sql`insert into items values (20)`.compile(database.db)));
    expect(await items()).toEqual([20]);
  });

  it("sends a statement held withNext before a savepoint, so rolling back to the savepoint keeps it", async () => {
    const trx = await database.db.startTransaction().execute();
    await insertWithNext(trx, 21);
    const savepoint = await trx.savepoint("after_21").execute();
    await sql`insert into items values (22)`.execute(savepoint);
    const back = await savepoint.rollbackToSavepoint("after_21").execute();
    await back.commit().execute();
    expect(await items()).toEqual([21]);
  });

  const updateAnsweredLater = (trx: Transaction<Schema>, id: number) => {
    const query = withNextAnswered(sql<{ id: number }>`update items set id = id where id = ${id} returning id`.compile(trx));
    return { query, executed: trx.executeQuery(query) };
  };

  it("answers a statement held withNextAnswered once it has gone out with the next one, in the same round trip", async () => {
    await sql`insert into items values (23)`.execute(database.db);
    const turns = await relay.count(() =>
      database.db.transaction().execute(async (trx) => {
        const { query, executed } = updateAnsweredLater(trx, 23);
        expect((await executed).rows).toEqual([]);
        await sql`insert into items values (24)`.execute(trx);
        const answer = await heldAnswer(query)!;
        expect(answer.rows).toEqual([{ id: 23 }]);
        expect(answer.numAffectedRows).toBe(1n);
      }),
    );
    expect(turns).toBe(2);
    expect(await items()).toEqual([23, 24]);
  });

  it("sends a statement held withNextAnswered at once when its answer is asked for first; outside a transaction it is the statement's own", async () => {
    await sql`insert into items values (25)`.execute(database.db);
    const turns = await relay.count(() =>
      database.db.transaction().execute(async (trx) => {
        const { query, executed } = updateAnsweredLater(trx, 25);
        await executed;
        expect((await heldAnswer(query)!).rows).toEqual([{ id: 25 }]);
      }),
    );
    expect(turns).toBe(2); // BEGIN and the update, then COMMIT
    const outside = withNextAnswered(sql<{ id: number }>`select id from items where id = ${25}`.compile(database.db));
    expect((await database.db.executeQuery(outside)).rows).toEqual([{ id: 25 }]);
    expect((await heldAnswer(outside))?.rows ?? null).toEqual([{ id: 25 }]);
  });

  it("fails the answer with its statement, and when the transaction ends without sending it", async () => {
    await sql`insert into items values (26), (27)`.execute(database.db);
    let failing: CompiledQuery | undefined;
    const attempt = database.db.transaction().execute(async (trx) => {
      failing = withNextAnswered(sql`update items set id = 27 where id = ${26}`.compile(trx)); // a duplicate key
      await trx.executeQuery(failing);
      await sql`insert into items values (28)`.execute(trx);
    });
    await expect(attempt).rejects.toThrow(/duplicate key/);
    await expect(heldAnswer(failing!)!).rejects.toThrow(/duplicate key/);
    let unsent: CompiledQuery | undefined;
    await database.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into items values (29)`.execute(trx);
        unsent = withNextAnswered(sql`update items set id = id where id = ${29}`.compile(trx));
        await trx.executeQuery(unsent);
        throw new Error("changed my mind");
      })
      .catch(() => {});
    await expect(heldAnswer(unsent!)!).rejects.toThrow(/ended before this statement was sent/);
    expect(await items()).toEqual([26, 27]);
  });

  it("drops a notification held after a savepoint the transaction rolls back to", async () => {
    const trx = await database.db.startTransaction().execute();
    await sql`insert into items values (6)`.execute(trx);
    const savepoint = await trx.savepoint("before_notify").execute();
    await notifyAtCommit(savepoint, channel, "rolled back");
    await sql`insert into items values (7)`.execute(savepoint);
    const back = await savepoint.rollbackToSavepoint("before_notify").execute();
    await notifyAtCommit(back, channel, "kept");
    await back.commit().execute();
    expect(await items()).toEqual([6]);
    await expect.poll(() => heard).toEqual([JSON.stringify("kept")]);
  });

  const preparedHere = async () => (await sql<{ statement: string }>`select statement from pg_prepared_statements order by statement`.execute(database.db)).rows.map((row) => row.statement);

  it("prepares a statement with parameters once per connection and runs it again by name; not BEGIN, COMMIT or columns given as *", async () => {
    await sql`insert into items values (8), (9)`.execute(database.db);
    for (const id of [8, 9, 8]) expect((await sql<{ id: number }>`select id from items where id = ${id}`.execute(database.db)).rows).toEqual([{ id }]);
    expect((await sql`select * from items where id = ${8}`.execute(database.db)).rows).toEqual([{ id: 8 }]);
    await database.db.transaction().execute((trx) => sql`update items set id = id where id = ${9}`.execute(trx));
    expect(await preparedHere()).toEqual(["select id from items where id = $1", "update items set id = id where id = $1"]);
  });

  it("keeps at most 200 prepared statements on a connection, deallocating the least recently used", async () => {
    for (let n = 0; n < 205; n++) await sql`select ${sql.lit(n)} as n, id from items where id = ${n}`.execute(database.db);
    const kept = await preparedHere();
    expect(kept).toHaveLength(200);
    expect(kept).not.toContain("select 4 as n, id from items where id = $1");
    expect(kept).toContain("select 5 as n, id from items where id = $1");
  });

  it("replaces a connection once it has dropped 200 prepared statements: pg's record of them goes with it", async () => {
    const backend = async () => (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db)).rows[0]!.pid;
    const first = await backend();
    for (let n = 0; n < 399; n++) await sql`select ${sql.lit(n)} as n, id from items where id = ${n}`.execute(database.db);
    expect(await backend()).toBe(first);
    await sql`select 399 as n, id from items where id = ${399}`.execute(database.db);
    expect(await backend()).not.toBe(first);
    expect(await preparedHere()).toEqual([]);
  });

  it("fails nothing else when deallocating a statement whose preparation failed (the server never held it)", async () => {
    await expect(sql`select id from missing_table where id = ${1}`.execute(database.db)).rejects.toThrow(/does not exist/);
    for (let n = 0; n < 205; n++) await sql`select ${sql.lit(n)} as n, id from items where id = ${n}`.execute(database.db);
    expect(await preparedHere()).toHaveLength(200);
  });

  it("prepares afresh when a table changed under its statements the way PostgreSQL refuses: again at once outside a transaction, at the next one inside", async () => {
    await sql`insert into items values (10)`.execute(database.db);
    const read = (db: Kysely<Schema> | Transaction<Schema>) => sql<{ id: number | string }>`select id from items where id = ${10}`.execute(db);
    await read(database.db);
    await sql`alter table items alter column id type bigint`.execute(database.db);
    expect((await read(database.db)).rows).toEqual([{ id: "10" }]);
    await sql`alter table items alter column id type integer`.execute(database.db);
    await expect(database.db.transaction().execute((trx) => read(trx))).rejects.toThrow(/cached plan must not change result type/);
    expect((await database.db.transaction().execute((trx) => read(trx))).rows).toEqual([{ id: 10 }]);
  });
});
