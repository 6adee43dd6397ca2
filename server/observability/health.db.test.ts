import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { cleanupAfterEach, freshDatabase, testEngines } from "../../test/support/database.ts";
import { LATEST_MIGRATION } from "../db/migrations.ts";
import { testApp } from "../../test/support/app.ts";

describe.each(testEngines())("/api/health/ready on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  async function shop() {
    const database = await freshDatabase(engine);
    cleanup(database.drop);
    const { app, services } = await testApp({ database });
    return { app, services, database };
  }

  const ready = async (app: Awaited<ReturnType<typeof shop>>["app"]) => {
    const response = await app.request("/api/health/ready");
    return [response.status, await response.json()];
  };

  it("is ready on a migrated database, and not while this code's latest migration is missing", async () => {
    const { app, database } = await shop();
    expect(await ready(app)).toEqual([200, { status: "ready" }]);
    await sql`delete from kysely_migration where name = ${LATEST_MIGRATION}`.execute(database.db);
    expect(await ready(app)).toEqual([503, { status: "unavailable", reason: "migrations pending" }]);
  });

  it("is not ready when the database does not answer, while live still is", async () => {
    const { app, database } = await shop();
    await database.close();
    expect(await ready(app)).toEqual([503, { status: "unavailable", reason: "database unavailable" }]);
    expect((await app.request("/api/health/live")).status).toBe(200);
  });
});
