import net from "node:net";
import { type AppDatabase, openDatabase } from "../../server/db/database.ts";
import { migrateToLatest } from "../../server/db/migrations.ts";
import { createPostgresSchema } from "./database.ts";

/**
 * Reads the client's side of PostgreSQL's protocol as it goes by: after the untyped start-up
 * message, each message is a type byte and a length that counts itself. `onParse` hears the text
 * of each Parse message (the server parses and plans that statement anew).
 */
function frontendReader(onParse: (sql: string) => void) {
  let pending = Buffer.alloc(0);
  let started = false;
  return (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const at = started ? 1 : 0;
      if (pending.length < at + 4) return;
      const end = at + pending.readInt32BE(at);
      if (pending.length < end) return;
      if (started && pending[0] === 0x50) {
        // Parse: the statement's name, then its text, each ending in a zero byte.
        const nameEnd = pending.indexOf(0, 5);
        onParse(pending.subarray(nameEnd + 1, pending.indexOf(0, nameEnd + 1)).toString());
      }
      // The SSL request (length 8, code 80877103) comes before the real start-up message.
      if (started || !(end === 8 && pending.readInt32BE(4) === 80877103)) started = true;
      pending = pending.subarray(end);
    }
  };
}

/**
 * A TCP relay to PostgreSQL that counts the client's turns to speak (round trips): a turn is what
 * a client sends before PostgreSQL answers, counted on each connection and summed over them all.
 * It also keeps the statements the client had the server parse (`parsed`).
 */
export async function turnCounter(target: URL) {
  let turns = 0;
  const parsed: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    let serverSpoke = true;
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const read = frontendReader((sql) => parsed.push(sql));
    client.on("data", (chunk: Buffer) => {
      if (serverSpoke) turns++;
      serverSpoke = false;
      read(chunk);
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => {
      serverSpoke = true;
      client.write(chunk);
    });
    const drop = () => [client, upstream].forEach((socket) => socket.destroy());
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const relayed = new URL(target);
  relayed.hostname = "127.0.0.1";
  relayed.port = String((server.address() as net.AddressInfo).port);
  return {
    url: relayed.href,
    /** The turns taken so far. */
    get turns() {
      return turns;
    },
    /** The text of every statement parsed so far, in order (a prepared one only the first time on each connection). */
    parsed,
    /** The turns taken by `work` (the connection already open). */
    async count(work: () => Promise<unknown>): Promise<number> {
      const before = turns;
      await work();
      return turns - before;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/**
 * A migrated PostgreSQL schema of its own, reached through a `turnCounter` relay, for a test that
 * counts round trips or parsed statements: `cleanups` gets what undoes each step (run last first).
 */
export async function countedPostgres(prefix: string, maxConnections: number, cleanups: Array<() => Promise<void> | void>): Promise<{ database: AppDatabase; relay: Awaited<ReturnType<typeof turnCounter>> }> {
  const schema = await createPostgresSchema(prefix);
  cleanups.push(() => schema.drop());
  const relay = await turnCounter(new URL(schema.databaseUrl));
  cleanups.push(() => relay.close());
  const database = openDatabase({ engine: "postgres", url: relay.url, maxConnections });
  cleanups.push(() => database.close());
  await migrateToLatest(database);
  return { database, relay };
}
