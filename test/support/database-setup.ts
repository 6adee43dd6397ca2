import pg from "pg";
import type { TestProject } from "vitest/node";
import type { Engine } from "../../server/db/database.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The engines this run's database tests cover. */
    engines: Engine[];
    /** The PostgreSQL server the database tests run on, or null when this run covers no PostgreSQL. */
    postgresUrl: string | null;
  }
}

const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/test";

/**
 * Decides once per run which engines the database tests cover. TEST_ENGINES (a comma list of
 * sqlite and postgres) names them; by default SQLite only (`npm test`), and `npm run test:pg` runs
 * them on the PostgreSQL at TEST_DATABASE_URL. A PostgreSQL asked for that does not answer is
 * skipped with a note, or a failure with REQUIRE_POSTGRES=1. CI runs each engine once.
 */
export default async function setup(project: TestProject): Promise<void> {
  const wanted = (process.env.TEST_ENGINES || "sqlite").split(",").map((name) => name.trim());
  const unknown = wanted.filter((name) => name !== "sqlite" && name !== "postgres");
  if (unknown.length > 0) throw new Error(`TEST_ENGINES names unknown engines: ${unknown.join(", ")} (sqlite, postgres)`);
  const engines: Engine[] = wanted.includes("sqlite") ? ["sqlite"] : [];
  const postgresUrl = wanted.includes("postgres") ? await findPostgres() : null;
  if (!wanted.includes("postgres")) console.log("Database tests run on SQLite; npm run test:pg runs them on PostgreSQL.");
  if (postgresUrl) engines.push("postgres");
  project.provide("engines", engines);
  project.provide("postgresUrl", postgresUrl);
}

async function findPostgres(): Promise<string | null> {
  const url = process.env.TEST_DATABASE_URL || DEFAULT_URL;
  const required = process.env.REQUIRE_POSTGRES === "1";
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("select 1");
    console.log(`Database tests run on PostgreSQL (${redact(url)})${process.env.TEST_ENGINES === "postgres" ? " only" : " and on SQLite"}.`);
    return url;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (required) throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL at ${redact(url)} does not answer: ${reason}`);
    console.log(
      `PostgreSQL at ${redact(url)} does not answer (${reason}): database tests run on SQLite only. ` +
        "Set TEST_DATABASE_URL to cover PostgreSQL as well.",
    );
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
}
