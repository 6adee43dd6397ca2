import http from "node:http";
import v8 from "node:v8";
import { createPipeline } from "./app.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { databaseTarget, openDatabase } from "./db/database.ts";
import { migrateToLatest } from "./db/migrations.ts";
import { lingeringResponses } from "./listen/lingering-close.ts";
import { HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from "./listen/timeouts.ts";
import type { PageRenderer } from "./load-context.ts";
import { createLogger, type Logger } from "./log.ts";
import { serveMetrics } from "./observability/metrics-server.ts";
import type { PageRoutes } from "./observability/page-routes.ts";
import { startTracing, type Tracing } from "./observability/tracing.ts";
import { startReconciler } from "./payments/reconciler.ts";
import { makePrivateDirectory } from "./private-files.ts";
import { createServices, type Services } from "./services.ts";

// The start-up both entries share: server/main.ts (the built server, production) and server/dev.ts
// (`npm run dev`, pages through Vite). They differ only in how pages are rendered.

// Under a burst of page renders V8 lets its heap grow to several times what is live and is slow to
// give it back; growing by a fifth at a time keeps an instance's memory near what it really uses
// (bench/http.ts measures it: docs/BENCHMARKS.md).
v8.setFlagsFromString("--heap-growing-percent=20");

const SHUTDOWN_GRACE_MS = 10_000;
/** How long the services get to close after the requests are done. */
const SHUTDOWN_CLOSE_MS = 5_000;
/** How often payment intents in flight are looked after (paid ones fulfilled, expired ones cancelled). */
const RECONCILE_EVERY_MS = 5 * 60 * 1000;
/** How often expired stock reservations are given back; reads give them back at once too. */
const SWEEP_EVERY_MS = 30_000;

export type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;

/** How an entry renders pages: the built app's handler and files, or Vite's. */
export interface Pages {
  ssr: PageRenderer;
  /** The built client assets; none in development, where Vite's middleware serves them. */
  clientDir?: string;
  /** Runs before the shop on every request (Vite's, in development). */
  middleware?: Middleware;
  pageRoutes?: PageRoutes;
}

export interface Entry {
  /**
   * "production": the built server, whatever NODE_ENV says. "development": `npm run dev` only,
   * which sets NODE_ENV=development itself.
   */
  mode: "production" | "development";
  pages(config: Config): Promise<Pages>;
}

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

/** Starts the shop (or, with --check-config, only checks the environment); a failure ends the process. */
export function runShop(entry: Entry): void {
  main(entry).catch((error: unknown) => {
    process.stderr.write(`Storefront failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

async function main(entry: Entry) {
  const loaded = configOrExit();
  if (process.argv.includes("--check-config")) return;
  // Development mode serves the project's files (Vite) and relaxes the CSP: a NODE_ENV left over
  // in an environment must not turn the built server into that.
  const ignored = entry.mode === "production" && loaded.NODE_ENV === "development";
  const config: Config = ignored ? { ...loaded, NODE_ENV: "production" } : loaded;
  const log = createLogger(config);
  if (ignored) log.warn("NODE_ENV=development is ignored: the built server always runs in production mode (`npm run dev` is development mode)");
  if (config.NODE_ENV === "development") {
    log.warn("development mode (npm run dev): pages render through Vite, which serves the project's files (its sources included; DATA_DIR is refused); never let anyone else reach it");
  }
  const privacy = makePrivateDirectory(config.DATA_DIR);
  if (!privacy.ok) log.warn({ dataDir: config.DATA_DIR }, `DATA_DIR not made private: ${privacy.reason}`);

  // Before the database, whose queries it traces; loads nothing unless an OTLP endpoint is set.
  const tracing = await startTracing(config, log);
  const database = openDatabase(databaseTarget(config), { trace: tracing.enabled ? tracing.traceQuery : undefined, log });
  const applied = await migrateToLatest(database);
  if (applied.length > 0) log.info({ migrations: applied }, "database migrated");
  const services = await createServices(config, log, database, { tracing });
  // Here, not in createServices: every test builds the services, and only a running shop reconciles.
  const reconciling = startReconciler(services.reconciler, RECONCILE_EVERY_MS, log, services.metrics);
  const { ssr, clientDir, middleware, pageRoutes } = await entry.pages(config);
  const metricsServer = config.METRICS_PORT === undefined ? null : await serveMetrics(services.metrics.registry, config.METRICS_HOST, config.METRICS_PORT);
  if (metricsServer) log.info({ url: metricsServer.url }, "metrics listening");
  const sweeper = startStockSweeper(services, log);

  // node:http -> the steps' answers in front of Hono -> the Hono app (docs/ARCHITECTURE.md "One request").
  const listener = createPipeline({ config, log, services, ssr, clientDir, pageRoutes }).listener();
  // An answer given before its request's body was read (a 413) reaches a client still sending it.
  const server = http.createServer({ ServerResponse: lingeringResponses() }, middleware ? (req, res) => middleware(req, res, () => listener(req, res)) : listener);
  // Slow or stalled clients are cut off instead of holding sockets (live order streams are
  // responses, not requests); idle connections close after KEEP_ALIVE_TIMEOUT_MS (listen/timeouts.ts).
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.PORT;
    log.info({ url: `http://${config.HOST}:${port}`, database: database.engine, mode: config.NODE_ENV }, "Storefront is listening");
    // Whoever waits for this line (an operator, a supervisor, the tests) need not wait for the batch.
    log.flush();
  });

  stopOnSignals({ config, log, server, services, reconciling, metricsServer, tracing, sweeper });
}

/**
 * SIGTERM or SIGINT: not ready any more at once, served on for SHUTDOWN_DRAIN_SECONDS while the load
 * balancer takes the instance out, then in-flight requests finished, and everything closed in order.
 */
function stopOnSignals(running: {
  config: Config;
  log: Logger;
  server: http.Server;
  services: Services;
  reconciling: { stop(): Promise<void> };
  metricsServer: { close(): Promise<void> } | null;
  tracing: Tracing;
  sweeper: NodeJS.Timeout | undefined;
}): void {
  const { config, log, server, services, reconciling, metricsServer, tracing, sweeper } = running;
  let stopping = false;
  let closing = false;
  let drained: NodeJS.Timeout | undefined;
  const stop = (signal: string) => {
    // A second signal while draining (Ctrl-C twice) skips the rest of the drain.
    if (stopping) return close();
    stopping = true;
    // From this moment /api/health/ready answers 503; everything else is still served while the
    // load balancer takes the instance out (SHUTDOWN_DRAIN_SECONDS), then the streams and the server close.
    services.readiness.drain();
    log.info({ signal, drainSeconds: config.SHUTDOWN_DRAIN_SECONDS }, "shutting down: not ready any more");
    drained = setTimeout(close, config.SHUTDOWN_DRAIN_SECONDS * 1000);
  };
  const close = () => {
    clearTimeout(drained);
    if (closing) return;
    closing = true;
    log.info("shutting down: finishing in-flight requests");
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
      await reconciling.stop();
      await services.close();
      await metricsServer?.close();
      await tracing.shutdown().catch((error: unknown) => log.warn({ err: error }, "tracing: spans not sent at shutdown"));
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
