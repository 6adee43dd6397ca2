import { AuthService } from "./auth/auth.ts";
import type { Catalogue } from "./catalogue/catalogue.ts";
import { DatabaseCatalogue } from "./catalogue/database.ts";
import { type CatalogueEvents, InProcessCatalogueEvents, PostgresCatalogueEvents } from "./catalogue/events.ts";
import { type CatalogueConfig, createCatalogue } from "./catalogue/index.ts";
import type { Config } from "./config.ts";
import type { AppDatabase } from "./db/database.ts";
import type { Logger } from "./log.ts";
import { InProcessOrderEvents, type OrderEvents, PostgresOrderEvents } from "./orders/events.ts";
import { OrderFeed } from "./orders/feed.ts";
import { OrdersService } from "./orders/service.ts";
import type { CheckoutMode } from "./payments/gateway.ts";
import { PaymentsService } from "./payments/service.ts";
import { StripeGateway } from "./payments/stripe-gateway.ts";
import { TestGateway } from "./payments/test-gateway.ts";
import { CatalogueSearch, type SearchService } from "./search/service.ts";
import { StockService } from "./stock/stock.ts";

export type ServicesConfig = CatalogueConfig &
  Pick<
  Config,
  | "PUBLIC_URL"
  | "TRUSTED_ORIGINS"
  | "AUTH_RATE_LIMIT_MAX"
  | "AUTH_RATE_LIMIT_WINDOW_SECONDS"
  | "STRIPE_SECRET_KEY"
  | "STRIPE_PUBLISHABLE_KEY"
  | "STRIPE_WEBHOOK_SECRET"
  | "RESERVATION_MINUTES"
>;

const RECONCILE_EVERY_MS = 5 * 60 * 1000;

/** Every back-end service, built once per process; `main.ts` and the tests both use it. */
export interface Services {
  readonly database: AppDatabase;
  readonly catalogue: Catalogue;
  readonly auth: AuthService;
  readonly payments: PaymentsService;
  readonly orders: OrdersService;
  readonly search: SearchService;
  readonly orderEvents: OrderEvents;
  /** The live order feeds (SSE) of this process. */
  readonly orderFeed: OrderFeed;
  readonly checkout: CheckoutMode;
  /** "These products changed" across instances (sales, reservations, stock changes). */
  readonly catalogueEvents: CatalogueEvents;
  /** Reservations and sales; null where stock is not tracked (a remote or test-supplied catalogue). */
  readonly stock: StockService | null;
  /**
   * Stops everything in order: open event streams, the LISTEN connection, the reconciler, then
   * the database, since the others may still be using it.
   */
  close(): Promise<void>;
}

/**
 * Builds the services over a migrated database. `overrides` lets a test put in its own catalogue
 * (a fake remote host, say) instead of the one the configuration names.
 */
export async function createServices(
  config: ServicesConfig,
  log: Logger,
  database: AppDatabase,
  overrides: { catalogue?: Catalogue; stripeApi?: { host: string; port: number; protocol: "http" | "https" } } = {},
): Promise<Services> {
  // Only the database catalogue changes through the shop: others need no LISTEN connection.
  const ownCatalogue = !overrides.catalogue && !config.CATALOGUE_URL;
  const catalogueEvents: CatalogueEvents =
    ownCatalogue && database.driver.engine === "postgres" ? new PostgresCatalogueEvents(database.driver.pool.options, log) : new InProcessCatalogueEvents();
  // The catalogue lives in the shop's database unless CATALOGUE_URL names a remote one (stock untracked there).
  const catalogue = overrides.catalogue ?? (ownCatalogue ? await DatabaseCatalogue.open(database, catalogueEvents, log) : createCatalogue(config, log));
  const stock =
    catalogue instanceof DatabaseCatalogue
      ? new StockService({ db: database.db, events: catalogueEvents, log, reservationMs: config.RESERVATION_MINUTES * 60_000 })
      : null;
  const auth = await AuthService.create(database, config, log);
  const gateway =
    config.STRIPE_SECRET_KEY && config.STRIPE_PUBLISHABLE_KEY
      ? await StripeGateway.create({ secretKey: config.STRIPE_SECRET_KEY, webhookSecret: config.STRIPE_WEBHOOK_SECRET, api: overrides.stripeApi })
      : new TestGateway(database.db);
  const orderEvents: OrderEvents =
    database.driver.engine === "postgres" ? new PostgresOrderEvents(database.driver.pool.options, log) : new InProcessOrderEvents();
  const orders = new OrdersService(database.db, orderEvents);
  const orderFeed = new OrderFeed(orders, orderEvents, log);
  const payments = new PaymentsService({ db: database.db, catalogue, gateway, orders, stock, log });
  const search = new CatalogueSearch(catalogue, log);
  const checkout: CheckoutMode =
    gateway.kind === "stripe" && config.STRIPE_PUBLISHABLE_KEY ? { gateway: "stripe", publishableKey: config.STRIPE_PUBLISHABLE_KEY } : { gateway: "test" };

  // No paid intent stays without an order: ask the gateway about stragglers now and every few minutes.
  const reconcile = () =>
    payments.reconcile().catch((error: unknown) => log.error({ err: error }, "payment reconciliation failed; will retry"));
  let reconciling: Promise<unknown> = reconcile();
  const timer = setInterval(() => (reconciling = reconcile()), RECONCILE_EVERY_MS);
  timer.unref();

  return {
    database,
    catalogue,
    auth,
    payments,
    orders,
    search,
    orderEvents,
    orderFeed,
    checkout,
    catalogueEvents,
    stock,
    async close() {
      orderFeed.closeAll();
      await orderEvents.close();
      await catalogueEvents.close();
      if (catalogue instanceof DatabaseCatalogue) catalogue.close();
      clearInterval(timer);
      search.close();
      await reconciling;
      await database.close();
    },
  };
}
