import { once } from "node:events";
import net from "node:net";
import { sql } from "kysely";
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { testApp } from "../../test/support/app.ts";
import { createPostgresSchema } from "../../test/support/database.ts";
import { relay } from "../../test/support/faults.ts";
import { memoryLogger } from "../../test/support/logger.ts";
import { type AppDatabase, openDatabase } from "./database.ts";
import { PostgresNotifications } from "./listener.ts";
import { migrateToLatest } from "./migrations.ts";

// PostgreSQL wakes every backend listening in a database at each NOTIFY, whatever its channel: the
// shop listens to all of its channels on one connection per process.
const url = inject("postgresUrl");

describe.skipIf(!url)("PostgreSQL notifications", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  const named = (base: string, name: string) => {
    const target = new URL(base);
    target.searchParams.set("application_name", name);
    return target.href;
  };
  async function database(): Promise<AppDatabase> {
    const opened = openDatabase({ engine: "postgres", url: url!, maxConnections: 1 });
    cleanups.push(() => opened.close());
    return opened;
  }
  const notify = (db: AppDatabase, channel: string, payload: string) => sql`select pg_notify(${channel}, ${payload})`.execute(db.db);
  const connections = async (db: AppDatabase, name: string) =>
    Number((await sql<{ n: string }>`select count(*) as n from pg_stat_activity where application_name = ${name}`.execute(db.db)).rows[0]!.n);

  it("listens to every channel on one connection, each listener hearing its own channel, and closes it with the last listener", async () => {
    const name = `notifications-${process.pid}-${Date.now()}`;
    const hub = new PostgresNotifications({ connectionString: named(url!, name) }, memoryLogger().log);
    cleanups.push(() => hub.close());
    const heard: string[] = [];
    const listen = (channel: string, who = channel) => hub.listen(channel, { onMessage: (payload) => heard.push(`${who}: ${payload}`), onListening: async () => {} });
    // Two listeners of one channel: two instances' services on one database in the tests, say.
    const [a, a2, b, c] = [listen("test_hub_a"), listen("test_hub_a", "second a"), listen("test_hub_b"), listen("test_hub_c")];
    await Promise.all([a.ready, a2.ready, b.ready, c.ready]);
    const db = await database();
    expect(await connections(db, name)).toBe(1);

    for (const channel of ["test_hub_a", "test_hub_b", "test_hub_c", "test_hub_other"]) await notify(db, channel, "1");
    await expect.poll(() => [...heard].sort()).toEqual(["second a: 1", "test_hub_a: 1", "test_hub_b: 1", "test_hub_c: 1"]);

    heard.length = 0;
    await b.close();
    await a.close();
    for (const channel of ["test_hub_a", "test_hub_b", "test_hub_c"]) await notify(db, channel, "2");
    await expect.poll(() => [...heard].sort()).toEqual(["second a: 2", "test_hub_c: 2"]);
    expect(await connections(db, name)).toBe(1);

    await a2.close();
    await c.close();
    await expect.poll(() => connections(db, name)).toBe(0);
  });

  it("listens to every channel again after the connection is lost, each told so (onListening) to catch up", async () => {
    const target = new URL(url!);
    const proxy = await relay({ host: target.hostname, port: Number(target.port || 5432) });
    cleanups.push(() => proxy.close());
    const relayed = new URL(url!);
    relayed.hostname = "127.0.0.1";
    relayed.port = String(proxy.port);
    const { log, records } = memoryLogger();
    const hub = new PostgresNotifications({ connectionString: relayed.href }, log);
    cleanups.push(() => hub.close());
    const listened: string[] = [];
    const heard: string[] = [];
    const listen = (channel: string) => hub.listen(channel, { onMessage: (payload) => heard.push(`${channel}: ${payload}`), onListening: async () => void listened.push(channel) });
    await Promise.all([listen("test_lost_a").ready, listen("test_lost_b").ready]);
    expect(listened.sort()).toEqual(["test_lost_a", "test_lost_b"]);

    proxy.cut();
    proxy.restore();
    await expect.poll(() => listened.length, { timeout: 10_000 }).toBe(4);
    expect(listened.slice(2).sort()).toEqual(["test_lost_a", "test_lost_b"]);
    expect(records.some((record) => record.msg === "notification connection lost; reconnecting")).toBe(true);
    const db = await database();
    await notify(db, "test_lost_b", "after");
    await expect.poll(() => heard).toEqual(["test_lost_b: after"]);
  }, 30_000);

  it("closes at once while its connection is still being made, to a server that never answers", async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    cleanups.push(() => {
      for (const socket of sockets) socket.destroy();
      silent.close();
    });
    const reached = once(silent, "connection");
    // pg gives up an attempt only when its timeout (a setTimeout) runs out: the fake clock never
    // lets it, so a close that waited for the attempt would never end.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    cleanups.push(() => void vi.useRealTimers());
    const hub = new PostgresNotifications({ host: "127.0.0.1", port: (silent.address() as net.AddressInfo).port, user: "postgres" }, memoryLogger().log);
    const listening = hub.listen("test_never", { onMessage: () => {}, onListening: async () => {} });
    await reached;
    await hub.close();
    await listening.ready;
  });

  it("gives the shop one LISTEN connection for its catalogue, orders and session revocations", async () => {
    const schema = await createPostgresSchema("listen");
    cleanups.push(() => schema.drop());
    const name = `shop-${process.pid}-${Date.now()}`;
    const shopDatabase = openDatabase({ engine: "postgres", url: named(schema.databaseUrl, name), maxConnections: 2 });
    cleanups.push(() => shopDatabase.close());
    await migrateToLatest(shopDatabase);
    const { services } = await testApp({ database: shopDatabase, catalogue: "database" });
    cleanups.push(() => services.close());
    await services.catalogueEvents.listening();
    await services.orderEvents.listening();
    const db = await database();
    // The connections whose last statement was a LISTEN (a connection per channel made three).
    const listening = await sql<{ query: string }>`select query from pg_stat_activity where application_name = ${name} and query ilike 'listen %'`.execute(db.db);
    expect(listening.rows).toHaveLength(1);
  });
});
