import { Hono } from "hono";
import { sql } from "kysely";
import type { AppDatabase } from "../db/database.ts";
import { LATEST_MIGRATION } from "../db/migrations.ts";
import type { AppEnv } from "../http/env.ts";
import { jsonResponse } from "../api-edge/json-response.ts";

const READY_CHECK_MS = 1_000;
const NO_STORE = { "Cache-Control": "no-store" };

/** Whether this process still takes new work: false from the moment it is told to stop. */
export class Readiness {
  private drainingSince: number | null = null;

  /** From now on /api/health/ready answers 503, so load balancers send new work elsewhere. */
  drain(): void {
    this.drainingSince ??= Date.now();
  }

  get draining(): boolean {
    return this.drainingSince !== null;
  }
}

/** Why the instance is not ready, or null when it is: shutting down, no database, or a schema behind this code. */
async function notReadyBecause(database: AppDatabase, readiness: Readiness): Promise<string | null> {
  if (readiness.draining) return "shutting down";
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), READY_CHECK_MS);
  });
  const latest = sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(database.db).then(
    (result) => result.rows[0]?.name ?? null,
    () => "error" as const,
  );
  try {
    const applied = await Promise.race([latest, timeout]);
    if (applied === "timeout" || applied === "error") return "database unavailable";
    // Another instance's newer migrations are fine (they only add); ours must all be there.
    if (applied === null || applied < LATEST_MIGRATION) return "migrations pending";
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * /api/health/live: the process answers (a supervisor restarts it when not).
 * /api/health/ready: it should get traffic: database answering, migrations done, not shutting down.
 */
export function healthRoutes(database: AppDatabase, readiness: Readiness): Hono<AppEnv> {
  const api = new Hono<AppEnv>();
  api.get("/live", (c) => jsonResponse(c, { status: "ok" }, 200, NO_STORE));
  api.get("/ready", async (c) => {
    const reason = await notReadyBecause(database, readiness);
    if (reason) return jsonResponse(c, { status: "unavailable", reason }, 503, { ...NO_STORE, "Retry-After": "5" });
    return jsonResponse(c, { status: "ready" }, 200, NO_STORE);
  });
  return api;
}
