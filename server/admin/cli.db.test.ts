import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { signUp, testApp } from "../../test/support/app.ts";
import { cleanupAfterEach, createPostgresSchema, testEngines } from "../../test/support/database.ts";
import { type DatabaseTarget, databaseTarget, openDatabase } from "../db/database.ts";
import { migrateToLatest } from "../db/migrations.ts";

// `npm run admin -- grant <email>` and `revoke <email>` on either engine, as an operator runs
// them: a process of their own on the database the shop is configured with.

const tsx = path.resolve("node_modules/.bin/tsx");

describe.each(testEngines())("npm run admin on %s", (engine) => {
  const cleanup = cleanupAfterEach();

  /** The variables that name a fresh database, as an operator would set them for the shop. */
  async function shopDatabase(): Promise<Record<string, string>> {
    if (engine === "postgres") {
      const schema = await createPostgresSchema("admin_cli");
      cleanup(schema.drop);
      return { DATABASE_URL: schema.databaseUrl };
    }
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-admin-cli-"));
    cleanup(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
    return { DATA_DIR: dataDir };
  }

  /** Signs an account up through the shop on that database, then lets go of it. */
  async function withAccount(env: Record<string, string>, email: string): Promise<DatabaseTarget> {
    const target = databaseTarget({ DATABASE_URL: env.DATABASE_URL, DATA_DIR: env.DATA_DIR ?? "" });
    const database = openDatabase(target);
    await migrateToLatest(database);
    const { app, services } = await testApp({ database });
    await signUp(app, email);
    await services.close();
    return target;
  }

  const admin = (env: Record<string, string>, ...args: string[]) => {
    const run = spawnSync(tsx, ["server/admin/cli.ts", ...args], { env: { PATH: process.env.PATH, ...env }, encoding: "utf8", timeout: 60_000 });
    return { code: run.status, out: run.stdout.trim(), err: run.stderr.trim() };
  };

  async function roleOf(target: DatabaseTarget, email: string) {
    const database = openDatabase(target);
    try {
      return (await database.db.selectFrom("user").select("role").where("email", "=", email).executeTakeFirst())?.role;
    } finally {
      await database.close();
    }
  }

  it("grants and revokes the admin role, and says when nothing changed", async () => {
    const env = await shopDatabase();
    const target = await withAccount(env, "boss@example.com");
    expect(admin(env, "grant", "Boss@example.com")).toEqual({ code: 0, out: "Boss@example.com is now an admin.", err: "" });
    expect(await roleOf(target, "boss@example.com")).toBe("admin");
    expect(admin(env, "grant", "boss@example.com").out).toBe("boss@example.com was already an admin.");
    expect(admin(env, "revoke", "boss@example.com")).toEqual({ code: 0, out: "boss@example.com is now a customer.", err: "" });
    expect(await roleOf(target, "boss@example.com")).toBe("customer");
    const database = openDatabase(target);
    try {
      const log = await database.db.selectFrom("audit_log").select(["actor", "action", "target"]).orderBy("at").execute();
      expect(log).toEqual([
        { actor: "npm run admin", action: "staff.grant", target: "user:boss@example.com" },
        { actor: "npm run admin", action: "staff.revoke", target: "user:boss@example.com" },
      ]);
    } finally {
      await database.close();
    }
  });

  it("refuses an unknown account and a wrong command, saying how to use it", async () => {
    const env = await shopDatabase();
    await withAccount(env, "boss@example.com");
    expect(admin(env, "grant", "nobody@example.com")).toEqual({ code: 1, out: "", err: "No account has the email nobody@example.com." });
    expect(admin(env, "promote", "boss@example.com")).toEqual({ code: 2, out: "", err: "Usage: npm run admin -- grant <email> | revoke <email>" });
  });
});
