import pg from "pg";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The PostgreSQL server the database tests also run on, or null when none answers. */
    postgresUrl: string | null;
  }
}

const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/test";

/** Looks for the PostgreSQL server once per run, so every database test knows which engines to cover. */
export default async function setup(project: TestProject): Promise<void> {
  const url = process.env.TEST_DATABASE_URL || DEFAULT_URL;
  const required = process.env.REQUIRE_POSTGRES === "1";
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("select 1");
    project.provide("postgresUrl", url);
    console.log(`Database tests run on SQLite and on PostgreSQL (${redact(url)}).`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (required) throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL at ${redact(url)} does not answer: ${reason}`);
    project.provide("postgresUrl", null);
    console.log(
      `PostgreSQL at ${redact(url)} does not answer (${reason}): database tests run on SQLite only. ` +
        "Set TEST_DATABASE_URL to cover PostgreSQL as well.",
    );
  } finally {
    await client.end().catch(() => {});
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");
}
