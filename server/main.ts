import http from "node:http";
import path from "node:path";
import v8 from "node:v8";
import { pathToFileURL } from "node:url";
import { getRequestListener } from "@hono/node-server";
import { createRequestHandler, type ServerBuild } from "react-router";
import { createApp } from "./app.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { databaseTarget, openDatabase } from "./db/database.ts";
import { migrateToLatest } from "./db/migrations.ts";
import type { SsrHandler } from "./load-context.ts";
import { createLogger } from "./log.ts";
import { createServices } from "./services.ts";

// Under a burst of page renders V8 lets its heap grow to several times what is live and is slow to
// give it back; growing by a fifth at a time keeps an instance's memory near what it really uses
// (bench/http.ts measures it: docs/BENCHMARKS.md).
v8.setFlagsFromString("--heap-growing-percent=20");

const BUILD_DIR = path.resolve("build");
const SHUTDOWN_GRACE_MS = 10_000;
/** How long the services get to close after the requests are done. */
const SHUTDOWN_CLOSE_MS = 5_000;
/** How often expired stock reservations are given back (issue 22); reads give them back at once too. */
const SWEEP_EVERY_MS = 30_000;

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;

/** Production serves the built app; development renders through Vite with hot reload. */
async function pageRenderer(config: Config): Promise<{ ssr: SsrHandler; clientDir?: string; middleware?: Middleware }> {
  if (config.NODE_ENV !== "development") {
    const buildFile = path.join(BUILD_DIR, "server", "index.js");
    const build = (await import(pathToFileURL(buildFile).href)) as ServerBuild;
    return { ssr: createRequestHandler(build, "production"), clientDir: path.join(BUILD_DIR, "client") };
  }
  const vite = await import("vite");
  const server = await vite.createServer({ server: { middlewareMode: true }, appType: "custom" });
  const build = () => server.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
  return { ssr: createRequestHandler(build, "development"), middleware: server.middlewares };
}

async function main() {
  const config = configOrExit();
  if (process.argv.includes("--check-config")) return;
  const log = createLogger(config);

  const database = openDatabase(databaseTarget(config));
  const applied = await migrateToLatest(database);
  if (applied.length > 0) log.info({ migrations: applied }, "database migrated");
  const services = await createServices(config, log, database);
  const { ssr, clientDir, middleware } = await pageRenderer(config);
  const sweeper = startStockSweeper(services, log);

  const app = createApp({ config, log, services, ssr, clientDir });
  const listener = getRequestListener(app.fetch);
  const server = http.createServer(middleware ? (req, res) => middleware(req, res, () => listener(req, res)) : listener);
  // A client gets 10 s to send its headers and 30 s for its whole request: slow or stalled clients
  // are cut off instead of holding sockets (live order streams are responses, not requests).
  // A client that sends its request and then closes its side (scripts, `nc -N`) still gets the
  // answer: by default node:http drops a response not yet written when the request's side ends.
  (server as http.Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.PORT;
    log.info({ url: `http://${config.HOST}:${port}`, database: database.engine, mode: config.NODE_ENV }, "Storefront is listening");
    // Whoever waits for this line (an operator, a supervisor, the tests) need not wait for the batch.
    log.flush();
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "shutting down: finishing in-flight requests");
    // Live order streams never finish by themselves: end them now (browsers reconnect elsewhere).
    services.orderFeed.closeAll();
    clearInterval(sweeper);
    const force = setTimeout(() => {
      log.warn("in-flight requests did not finish in time; closing anyway");
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS).unref();
    // Whatever hangs (a database that vanished mid-shutdown), the process still ends.
    setTimeout(() => {
      log.error("shutdown did not complete in time; exiting");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + SHUTDOWN_CLOSE_MS).unref();
    server.close(async () => {
      clearTimeout(force);
      await services.close();
      log.info("stopped");
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

/** Expired reservations give their units back (and cancel their intents) even when nobody reads them. */
function startStockSweeper(services: Awaited<ReturnType<typeof createServices>>, log: ReturnType<typeof createLogger>): NodeJS.Timeout | undefined {
  const stock = services.stock;
  if (!stock) return undefined;
  const timer = setInterval(() => {
    stock.sweep().catch((error: unknown) => log.error({ err: error }, "stock sweep failed; will retry"));
  }, SWEEP_EVERY_MS);
  return timer.unref();
}

main().catch((error: unknown) => {
  process.stderr.write(`Storefront failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
