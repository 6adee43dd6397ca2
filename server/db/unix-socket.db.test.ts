import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterEach, describe, expect, inject, it } from "vitest";
import { createPostgresSchema } from "../../test/support/database.ts";
import { memoryLogger } from "../../test/support/logger.ts";
import { PostgresCatalogueEvents } from "../catalogue/events.ts";
import { loadConfig } from "../config.ts";
import { type AppDatabase, databaseTarget, openDatabase } from "./database.ts";

// A PostgreSQL on the shop's own machine is reached more cheaply through its Unix socket than over
// TCP (no TCP stack on either side for every round trip). Nothing in the shop assumes TCP: the
// operator names the socket's directory in DATABASE_URL, as libpq does, and the pool, the LISTEN
// connections and the notifications all go through it.
const url = inject("postgresUrl");

/** The test server's socket directory, when the server is on this machine and has one. */
async function socketDirectory(server: string): Promise<{ dir: string; port: string } | null> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    const dirs = (await client.query<{ unix_socket_directories: string }>("show unix_socket_directories")).rows[0]!.unix_socket_directories;
    const port = (await client.query<{ port: string }>("show port")).rows[0]!.port;
    const dir = dirs.split(",").map((entry) => entry.trim()).find((entry) => entry.startsWith("/") && fs.existsSync(path.join(entry, `.s.PGSQL.${port}`)));
    return dir ? { dir, port } : null;
  } finally {
    await client.end();
  }
}

const socket = url ? await socketDirectory(url).catch(() => null) : null;
if (url && !socket) console.log("Skipped the Unix socket tests: the test PostgreSQL has no socket on this machine.");

describe.skipIf(!socket)("PostgreSQL through its Unix socket (DATABASE_URL ?host=/directory)", () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  /** The test schema's DATABASE_URL with the socket's directory as its host, in either form libpq reads. */
  async function socketUrls() {
    const schema = await createPostgresSchema("socket");
    cleanups.push(() => schema.drop());
    const tcp = new URL(schema.databaseUrl);
    const user = decodeURIComponent(tcp.username) || "postgres";
    const options = tcp.searchParams.get("options")!;
    const query = `port=${socket!.port}&options=${encodeURIComponent(options)}`;
    return [
      `postgres://${user}@localhost${tcp.pathname}?host=${encodeURIComponent(socket!.dir)}&${query}`,
      `postgresql://${user}@${encodeURIComponent(socket!.dir)}${tcp.pathname}?${query}`,
    ];
  }

  it("takes the socket's directory from DATABASE_URL, and the shop's pool, statements and notifications go through it", async () => {
    for (const databaseUrl of await socketUrls()) {
      const config = loadConfig({ DATABASE_URL: databaseUrl });
      const database: AppDatabase = openDatabase(databaseTarget(config));
      cleanups.push(() => database.close());
      // No server address: the session is on the Unix socket, not TCP.
      const { rows } = await sql<{ address: string | null }>`select inet_server_addr() as address`.execute(database.db);
      expect(rows).toEqual([{ address: null }]);
      if (database.driver.engine !== "postgres") throw new Error("DATABASE_URL names PostgreSQL");
      const events = new PostgresCatalogueEvents(database.driver.notifications, memoryLogger().log);
      cleanups.push(() => events.close());
      await events.listening();
      const heard: Array<number[] | null> = [];
      events.subscribe((change) => heard.push(change.ids));
      await database.db.transaction().execute((trx) => events.publish(trx, { ids: [7] }));
      await expect.poll(() => heard).toEqual([[7]]);
    }
  });
});
