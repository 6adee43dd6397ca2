import { sql } from "kysely";
import { describe, expect, inject, it } from "vitest";
import { relay } from "../../test/support/faults.ts";
import { openDatabase } from "../db/database.ts";
import { PostgresNotifications } from "../db/listener.ts";
import { createLogger } from "../log.ts";
import { type OrderEvent, PostgresOrderEvents } from "./events.ts";

// The LISTEN connection comes back by itself after the database went away, and says so (resync),
// so the streams can catch up on what was announced meanwhile.
const url = inject("postgresUrl");

describe.skipIf(!url)("PostgreSQL order events", () => {
  it("re-establishes LISTEN after losing the database, asks the streams to catch up, and hears new orders again", async () => {
    const target = new URL(url!);
    const proxy = await relay({ host: target.hostname, port: Number(target.port || 5432) });
    const relayed = new URL(url!);
    relayed.hostname = "127.0.0.1";
    relayed.port = String(proxy.port);
    const silent = createLogger({ NODE_ENV: "test", LOG_LEVEL: "silent" });
    const events = new PostgresOrderEvents(new PostgresNotifications({ connectionString: relayed.href }, silent), silent);
    const database = openDatabase({ engine: "postgres", url: url!, maxConnections: 1 });
    const seen: OrderEvent[] = [];
    events.subscribe((event) => seen.push(event));
    const next = (match: (e: OrderEvent) => boolean) => expect.poll(() => seen.some(match), { timeout: 10_000 }).toBe(true);
    const announce = (orderId: string) =>
      database.db.transaction().execute((trx) => events.publish(trx, { type: "placed", userId: "user-1", orderId }).then(() => sql`select 1`.execute(trx)));
    try {
      await events.listening();
      await announce("pi_before");
      await next((e) => e.type === "placed" && e.orderId === "pi_before");

      proxy.cut(); // the database goes away for this process's listener
      proxy.restore();
      await next((e) => e.type === "resync");
      await announce("pi_after");
      await next((e) => e.type === "placed" && e.orderId === "pi_after");
    } finally {
      await events.close();
      await database.close();
      proxy.close();
    }
  }, 30_000);

  it("leaves no LISTEN connection behind when it is closed while it first connects", async () => {
    const name = `events-close-${process.pid}-${Date.now()}`;
    const silent = createLogger({ NODE_ENV: "test", LOG_LEVEL: "silent" });
    const events = new PostgresOrderEvents(new PostgresNotifications({ connectionString: url!, application_name: name }, silent), silent);
    await events.close(); // the first connect is still on its way
    await events.listening(); // ...and has now finished, one way or the other
    const database = openDatabase({ engine: "postgres", url: url!, maxConnections: 1 });
    try {
      const open = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where application_name = ${name}`.execute(database.db);
      expect(Number(open.rows[0]!.n)).toBe(0);
    } finally {
      await database.close();
    }
  });
});
