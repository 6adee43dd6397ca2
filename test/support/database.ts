import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, inject, type TestContext } from "vitest";
import { type AppDatabase, type Engine, openDatabase } from "../../server/db/database.ts";
import { migrateToLatest } from "../../server/db/migrations.ts";
import type { Traced } from "../../server/observability/port.ts";

/** The engines this test run covers (see database-setup.ts). */
export function testEngines(): Engine[] {
  return inject("engines");
}

const POSTGRES_ONLY = "this run covers PostgreSQL only (TEST_ENGINES); npm test covers SQLite";

/** Skips the calling SQLite-only test, saying why, when this run does not cover SQLite. */
export function sqliteOrSkip(context: TestContext): void {
  if (!testEngines().includes("sqlite")) context.skip(POSTGRES_ONLY);
}

/** For `describe.skipIf(!onSqlite(name))`: whether this run covers SQLite; says why `name` is skipped when not. */
export function onSqlite(name: string): boolean {
  const covered = testEngines().includes("sqlite");
  if (!covered) console.log(`Skipped "${name}": ${POSTGRES_ONLY}.`);
  return covered;
}

/**
 * A fresh, empty database on `engine`: a SQLite file in a temporary folder (what the shop runs,
 * group commit and all), or a schema of its own on the test PostgreSQL server; `drop` removes it.
 */
export async function freshDatabase(
  engine: Engine,
  /** `trace`: hears every statement the driver runs (openDatabase's tracing hook), e.g. to count them. */
  options: { migrate?: boolean; trace?: Traced } = {},
): Promise<AppDatabase & { drop(): Promise<void> }> {
  let database: AppDatabase;
  let cleanup = async () => {};
  if (engine === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-test-"));
    database = openDatabase({ engine: "sqlite", file: path.join(dir, "storefront.sqlite") }, { trace: options.trace });
    cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
  } else {
    const url = inject("postgresUrl");
    if (!url) throw new Error("freshDatabase('postgres') called but no PostgreSQL server answered");
    const schema = `test_${randomBytes(6).toString("hex")}`;
    await admin(url, `create schema ${schema}`);
    database = openDatabase({ engine: "postgres", url, searchPath: schema, maxConnections: 4 }, { trace: options.trace });
    cleanup = () => admin(url, `drop schema ${schema} cascade`);
  }
  if (options.migrate !== false) await migrateToLatest(database);
  return {
    ...database,
    async drop() {
      await database.close();
      await cleanup();
    },
  };
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Runs `use` with the URL of a fresh schema on the test PostgreSQL server (for processes started
 * with DATABASE_URL), dropping the schema afterwards.
 */
export async function withPostgresSchema<T>(prefix: string, run: (databaseUrl: string, schema: string) => Promise<T>): Promise<T> {
  const { databaseUrl, schema, drop } = await createPostgresSchema(prefix);
  try {
    return await run(databaseUrl, schema);
  } finally {
    await drop();
  }
}

/** A fresh schema on the test PostgreSQL server: its DATABASE_URL, its name, and how to drop it. */
export async function createPostgresSchema(prefix: string): Promise<{ databaseUrl: string; schema: string; drop(): Promise<void> }> {
  const url = inject("postgresUrl");
  if (!url) throw new Error("createPostgresSchema called but no PostgreSQL server answered");
  const schema = `${prefix}_${randomBytes(5).toString("hex")}`;
  await admin(url, `create schema ${schema}`);
  return {
    databaseUrl: `${url}${url.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    schema,
    drop: () => admin(url, `drop schema ${schema} cascade`),
  };
}

/** Registers clean-ups for the current test file's tests; each runs after its test, last first. */
export function cleanupAfterEach(): (cleanup: () => Promise<void>) => void {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  return (cleanup) => void cleanups.push(cleanup);
}
