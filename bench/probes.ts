// The security reviews' live probes, rerunnable: starts the built server (`npm run build` first)
// and prints each probe and its answer. The sign-out probe runs two instances on one
// PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, in a schema of
// its own, dropped afterwards) and is skipped, saying why, when none answers.
// Usage: npm run probes
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { startServer } from "../test/support/server-process.ts";
import { BOSS, encodedBackOffice, strictBackOffice, unitLimit, verifiedStaff } from "./probes-back-office.ts";
import { malformedBodies, resetLinks } from "./probes-bodies.ts";
import { nonTestCards, openRedirects, ORIGIN, oversizedPagePosts, publicAnswers, replayAfterSignOut, streamCaps, textPlainBodies } from "./probes-checks.ts";
import { fileModes, secretInUrl, withoutNodeEnv } from "./probes-process.ts";

const ENV = { PUBLIC_URL: ORIGIN, AUTH_RATE_LIMIT_MAX: "1000", LOG_LEVEL: "info", ADMIN_EMAILS: BOSS };

async function onOneInstance(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-probes-"));
  // As an operator's folder often is: readable by everyone until the shop starts.
  fs.chmodSync(dataDir, 0o755);
  const server = await startServer({ ...ENV, DATA_DIR: dataDir });
  try {
    for (const [title, probe] of [
      ["Open redirects after sign-in (form post, .data request, hidden field)", openRedirects],
      ["Cookies on public answers", publicAnswers],
      ["Oversized page posts", oversizedPagePosts],
      ["Live order stream caps", streamCaps],
      ["Non-test card numbers on the test gateway", nonTestCards],
      ["text/plain bodies to JSON endpoints", textPlainBodies],
      ["The back office at encoded addresses", encodedBackOffice],
      ["Malformed bodies, and forms to better-auth", malformedBodies],
      ["More units of one product than one shopper may hold", unitLimit],
    ] as const) {
      console.log(`\n${title}`);
      await probe(server.url);
    }
    console.log("\nADMIN_EMAILS and the confirmation mail");
    const boss = await verifiedStaff(server.url, dataDir);
    console.log("\nStrict refunds and back-office forms");
    await strictBackOffice(server.url, boss);
    console.log("\nReset links: two requested, the newer used");
    await resetLinks(server.url, dataDir);
    console.log("\nFiles the shop wrote");
    fileModes(dataDir);
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function onTwoInstances(): Promise<void> {
  console.log("\nReplayed cookies after sign-out, on a second instance (one PostgreSQL)");
  const url = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`  skipped: PostgreSQL at ${url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@")} does not answer (${error instanceof Error ? error.message : String(error)})`);
    return;
  }
  const schema = `probes_${randomBytes(5).toString("hex")}`;
  await admin.query(`create schema ${schema}`);
  const databaseUrl = `${url}${url.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "storefront-probes-"));
  const servers = [];
  try {
    // One after the other: the first creates the schema, the second finds it made.
    servers.push(await startServer({ ...ENV, DATA_DIR: dataDir, DATABASE_URL: databaseUrl, INSTANCE_NAME: "probe-1" }));
    servers.push(await startServer({ ...ENV, DATA_DIR: dataDir, DATABASE_URL: databaseUrl, INSTANCE_NAME: "probe-2" }));
    await replayAfterSignOut(servers[0]!.url, servers[1]!.url);
  } finally {
    for (const server of servers) await server.stop();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (!fs.existsSync(path.resolve("build/node/main.js"))) {
  console.error("The probes run the built server: `npm run build` first.");
  process.exit(1);
}
console.log("Storefront security probes: each probe -> the answer");
console.log("\nThe built entry as a process manager starts it");
await withoutNodeEnv();
secretInUrl();
await onOneInstance();
await onTwoInstances();
