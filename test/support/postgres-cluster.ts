import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Cluster, NO_NGINX, nginxForTest, startCluster } from "./local-cluster.ts";

const DATABASE_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";

async function run(statement: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query(statement);
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export interface PostgresCluster {
  /** The instances behind nginx; null when skipped. */
  cluster: Cluster | null;
  /** Why the journey cannot run here ("" when it can); already printed. */
  skipped: string;
  close(): Promise<void>;
}

/**
 * For the journeys on several instances: two shops on a schema of their own on the test PostgreSQL,
 * behind a local nginx; or, printed with `what`, why not (no nginx, no PostgreSQL). REQUIRE_NGINX=1
 * (CI) makes a missing nginx a failure.
 */
export async function postgresCluster(what: string, env: Record<string, string> = {}): Promise<PostgresCluster> {
  const skip = (skipped: string): PostgresCluster => ({ cluster: null, skipped, close: async () => {} });
  if (!nginxForTest(what)) return skip(NO_NGINX);
  const schema = `e2e_${randomBytes(5).toString("hex")}`;
  if (!(await run(`create schema ${schema}`))) {
    const skipped = `no PostgreSQL answers at ${DATABASE_URL}`;
    console.log(`${what} skipped: ${skipped}.`);
    return skip(skipped);
  }
  const databaseUrl = `${DATABASE_URL}${DATABASE_URL.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const cluster = await startCluster({ databaseUrl, env: { AUTH_RATE_LIMIT_MAX: "1000", ...env } });
  return {
    cluster,
    skipped: "",
    async close() {
      await cluster.close();
      await run(`drop schema ${schema} cascade`);
    },
  };
}
