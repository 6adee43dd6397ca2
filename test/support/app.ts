import { type createApp, createPipeline, type Pipeline } from "../../server/app.ts";
import type { Catalogue } from "../../server/catalogue/catalogue.ts";
import { EmbeddedCatalogue } from "../../server/catalogue/embedded.ts";
import { loadConfig } from "../../server/config.ts";
import { type AppDatabase, openDatabase } from "../../server/db/database.ts";
import { migrateToLatest } from "../../server/db/migrations.ts";
import type { PageRenderer } from "../../server/load-context.ts";
import { createLogger, type Logger } from "../../server/log.ts";
import type { MailOptions } from "../../server/mail/service.ts";
import type { PageRoutes } from "../../server/observability/page-routes.ts";
import { createServices, type Services } from "../../server/services.ts";
import type { Engine } from "../../server/db/database.ts";
import { freshDatabase } from "./database.ts";

export const TEST_ORIGIN = "http://localhost:3000";

export interface TestAppOptions {
  /** A migrated database; an in-memory SQLite one when absent. */
  database?: AppDatabase;
  /** The catalogue to use; "database" for the shop's own (the default of main.ts), the embedded JSON when absent. */
  catalogue?: Catalogue | "database";
  ssr?: PageRenderer;
  /** The built client assets to serve (build/client). */
  clientDir?: string;
  log?: Logger;
  /** Environment variables on top of the test defaults, parsed as `main.ts` parses them. */
  env?: Record<string, string>;
  /** Where the Stripe gateway sends its API calls (a local stub), when STRIPE_* keys are set. */
  stripeApi?: { host: string; port: number; protocol: "http" | "https" };
  /** Page addresses to route patterns, as main.ts takes them from the build. */
  pageRoutes?: PageRoutes;
  /** The mail worker's clock and adapter; it never polls here: a test drains it with services.mail.worker.drain(). */
  mail?: Omit<MailOptions, "manual">;
}

/** The app as `main.ts` builds it, in-process: real config parsing, real services, real pipeline. */
export async function testApp(options: TestAppOptions = {}): Promise<{ app: ReturnType<typeof createApp>; services: Services; listener: Pipeline["listener"]; steps: Pipeline["steps"] }> {
  const config = loadConfig({
    NODE_ENV: "production",
    PUBLIC_URL: TEST_ORIGIN,
    AUTH_RATE_LIMIT_MAX: "1000",
    ...options.env,
  });
  const log = options.log ?? createLogger({ NODE_ENV: "test", LOG_LEVEL: "silent" });
  let database = options.database;
  if (!database) {
    database = openDatabase({ engine: "sqlite", file: ":memory:" });
    await migrateToLatest(database);
  }
  const services = await createServices(config, log, database, {
    catalogue: options.catalogue === "database" ? undefined : (options.catalogue ?? new EmbeddedCatalogue()),
    stripeApi: options.stripeApi,
    mail: { ...options.mail, manual: true },
  });
  const { app, listener, steps } = createPipeline({ config, log, services, ssr: options.ssr, clientDir: options.clientDir, pageRoutes: options.pageRoutes });
  return { app, services, listener, steps };
}

/**
 * The app on a fresh database of `engine` (dropped after the test through `cleanup`), with its live
 * order streams closed first: what most database tests of the HTTP layer start from.
 */
export async function testAppOnFreshDatabase(engine: Engine, cleanup: (step: () => Promise<void>) => void, options: Omit<TestAppOptions, "database"> = {}) {
  const database = await freshDatabase(engine);
  cleanup(database.drop);
  const shop = await testApp({ ...options, database });
  cleanup(async () => shop.services.orderFeed.closeAll());
  return { ...shop, database };
}

type App = Awaited<ReturnType<typeof testApp>>["app"];

/** A same-origin JSON request, as the shop's own pages send them. */
export const jsonPost = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/json", origin: TEST_ORIGIN, ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

/** Registers a shopper through better-auth's route and returns the session cookie to send. */
export async function signUp(app: App, email: string, password = "correct horse"): Promise<string> {
  const response = await app.request("/api/auth/sign-up/email", jsonPost({ email, password, name: email }));
  if (response.status !== 200) throw new Error(`sign-up of ${email} failed with ${response.status}: ${await response.text()}`);
  const cookie = response.headers.getSetCookie().find((c) => c.includes("session_token="));
  if (!cookie) throw new Error("sign-up gave no session cookie");
  return cookie.split(";")[0]!;
}
