import { AuditLog } from "./audit/log.ts";
import { AdminOrders } from "./admin/orders.ts";
import type { ProductsAdmin } from "./admin/products.ts";
import { ReadOnlyProducts, readOnlyReason } from "./admin/products-readonly.ts";
import { DatabaseProducts } from "./admin/products-store.ts";
import { AuthService, authMail } from "./auth/auth.ts";
import type { Catalogue } from "./catalogue/catalogue.ts";
import { DatabaseCatalogue } from "./catalogue/database.ts";
import { type CatalogueEvents, InProcessCatalogueEvents, PostgresCatalogueEvents } from "./catalogue/events.ts";
import { type CatalogueConfig, createCatalogue } from "./catalogue/index.ts";
import type { Config } from "./config.ts";
import type { AppDatabase } from "./db/database.ts";
import type { Logger } from "./log.ts";
import { Readiness } from "./observability/health.ts";
import { ShopMetrics } from "./observability/metrics.ts";
import { watchServices } from "./observability/service-gauges.ts";
import { noTracing, type Tracing } from "./observability/tracing.ts";
import { createMail, type MailConfig, type MailOptions, type MailService } from "./mail/service.ts";
import { InProcessOrderEvents, type OrderEvents, PostgresOrderEvents } from "./orders/events.ts";
import { OrderFeed } from "./orders/feed.ts";
import { OrdersService } from "./orders/service.ts";
import type { CheckoutMode, PaymentGateway } from "./payments/gateway.ts";
import { instrumentedGateway } from "./payments/instrumented-gateway.ts";
import { PaymentReconciler } from "./payments/reconciler.ts";
import { PaymentsService } from "./payments/service.ts";
import { RefundsService } from "./refunds/service.ts";
import { StripeGateway } from "./payments/stripe-gateway.ts";
import { TestGateway } from "./payments/test-gateway.ts";
import { DatabaseSearch } from "./search/database-search.ts";
import { CatalogueSearch, type SearchService } from "./search/service.ts";
import { StockService } from "./stock/stock.ts";

export type ServicesConfig = CatalogueConfig &
  MailConfig &
  Pick<
  Config,
  | "PUBLIC_URL"
  | "TRUSTED_ORIGINS"
  | "AUTH_RATE_LIMIT_MAX"
  | "AUTH_RATE_LIMIT_WINDOW_SECONDS"
  | "STRIPE_SECRET_KEY"
  | "STRIPE_PUBLISHABLE_KEY"
  | "STRIPE_WEBHOOK_SECRET"
  | "METRICS_PORT"
  | "PAYMENT_INTENT_TTL_HOURS"
  | "PAYMENT_CREATE_RATE_LIMIT"
  | "MAX_UNITS_PER_PRODUCT"
  | "RESERVATION_MINUTES"
  | "ADMIN_EMAILS"
>;

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
  /** This process's metrics registry (served on METRICS_PORT by main.ts). */
  readonly metrics: ShopMetrics;
  /** OpenTelemetry when configured, else nothing. */
  readonly tracing: Tracing;
  /** What /api/health/ready reports; main.ts drains it on SIGTERM. */
  readonly readiness: Readiness;
  /** The mail adapter and the outbox worker. */
  readonly mail: MailService;
  /** Looks after payment intents in flight; started by `main.ts` (startReconciler), run by tests. */
  readonly reconciler: PaymentReconciler;
  /** "These products changed" across instances (sales, reservations, stock changes). */
  readonly catalogueEvents: CatalogueEvents;
  /** Reservations and sales; null where stock is not tracked (a remote or test-supplied catalogue). */
  readonly stock: StockService | null;
  /** The back office's audit log, read-only; writes append to it in their own transactions. */
  readonly audit: AuditLog;
  /** Refunds: exactly once per Idempotency-Key, never past what was paid. */
  readonly refunds: RefundsService;
  /** The back office's orders (the API's and the pages'): every customer's orders and refunds. */
  readonly adminOrders: AdminOrders;
  /** The back office's products: editable in the shop's database, read-only otherwise. */
  readonly products: ProductsAdmin;
  /**
   * Stops everything in order: open event streams, the LISTEN connections, the mail worker (after
   * the message in flight), then the database, since the others may still be using it. (`main.ts`
   * stops the reconciler it started first.)
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
  overrides: {
    catalogue?: Catalogue;
    stripeApi?: { host: string; port: number; protocol: "http" | "https" };
    /** The tracing main.ts started before opening the database (whose queries it traces). */
    tracing?: Tracing;
    mail?: MailOptions;
  } = {},
): Promise<Services> {
  const tracing = overrides.tracing ?? noTracing;
  const metrics = new ShopMetrics(tracing.trace);
  // Node's process metrics cost a little (an event loop monitor): only when someone reads them.
  if (config.METRICS_PORT !== undefined) metrics.collectProcessMetrics();
  const { catalogueEvents, databaseCatalogue, catalogue } = await openCatalogue(config, log, database, metrics, overrides.catalogue);
  const mail = createMail(config, log, database, overrides.mail, metrics);
  const mailWritten = () => mail.worker.kick();
  const auth = await AuthService.create(database, config, log, authMail(database.db, log, mailWritten));
  const gateway = instrumentedGateway(await paymentGateway(config, database, overrides.stripeApi), metrics);
  const orderEvents: OrderEvents =
    database.driver.engine === "postgres" ? new PostgresOrderEvents(database.driver.notifications, log) : new InProcessOrderEvents(database.afterCommit);
  const orders = new OrdersService(database.db, orderEvents);
  const orderFeed = new OrderFeed(orders, orderEvents, log);
  const { stock, refunds, payments } = checkoutServices(config, log, database, { catalogue, catalogueEvents, databaseCatalogue, gateway, orders, metrics, mailWritten });
  const reconciler = new PaymentReconciler({ database, gateway, payments, refunds, ttlMs: config.PAYMENT_INTENT_TTL_HOURS * 3_600_000, log });
  watchServices(metrics, { database, catalogue, orderFeed });
  const readiness = new Readiness();
  // The database catalogue is searched by its database; the others (FakeStore-sized) in memory.
  const search = databaseCatalogue ? new DatabaseSearch(catalogue, database, log) : new CatalogueSearch(catalogue, log);

  return {
    database,
    catalogue,
    auth,
    payments,
    orders,
    search,
    orderEvents,
    orderFeed,
    checkout: gateway.checkout,
    metrics,
    tracing,
    readiness,
    mail,
    reconciler,
    catalogueEvents,
    stock,
    audit: new AuditLog(database.db),
    refunds,
    adminOrders: new AdminOrders(database.db, orders, refunds),
    products: databaseCatalogue
      ? new DatabaseProducts({ db: database.db, engine: database.engine, events: catalogueEvents, catalogue: databaseCatalogue })
      : new ReadOnlyProducts(catalogue, readOnlyReason(config.CATALOGUE_URL)),
    async close() {
      readiness.drain();
      orderFeed.closeAll();
      await orderEvents.close();
      await catalogueEvents.close();
      databaseCatalogue?.close();
      search.close();
      await auth.close();
      await mail.close();
      await database.close();
    },
  };
}

/** The catalogue: the shop's database unless given one (tests) or CATALOGUE_URL names a remote one (stock untracked there). */
async function openCatalogue(config: ServicesConfig, log: Logger, database: AppDatabase, metrics: ShopMetrics, given?: Catalogue) {
  // Only the database catalogue changes through the shop: others need no LISTEN connection.
  const ownCatalogue = !given && !config.CATALOGUE_URL;
  const catalogueEvents: CatalogueEvents =
    ownCatalogue && database.driver.engine === "postgres" ? new PostgresCatalogueEvents(database.driver.notifications, log) : new InProcessCatalogueEvents(database.afterCommit);
  const databaseCatalogue = ownCatalogue ? await DatabaseCatalogue.open(database, catalogueEvents, log) : null;
  const catalogue = given ?? databaseCatalogue ?? createCatalogue(config, log, {}, metrics);
  return { catalogueEvents, databaseCatalogue, catalogue };
}

/** Stripe when its keys are set, else the built-in test gateway. */
async function paymentGateway(config: ServicesConfig, database: AppDatabase, stripeApi?: { host: string; port: number; protocol: "http" | "https" }): Promise<PaymentGateway> {
  return config.STRIPE_SECRET_KEY && config.STRIPE_PUBLISHABLE_KEY
    ? await StripeGateway.create({ secretKey: config.STRIPE_SECRET_KEY, publishableKey: config.STRIPE_PUBLISHABLE_KEY, webhookSecret: config.STRIPE_WEBHOOK_SECRET, api: stripeApi })
    : new TestGateway(database.db);
}

/** What a checkout goes through: stock (the database catalogue's only), refunds and payments. */
function checkoutServices(
  config: ServicesConfig,
  log: Logger,
  database: AppDatabase,
  parts: {
    catalogue: Catalogue;
    catalogueEvents: CatalogueEvents;
    databaseCatalogue: DatabaseCatalogue | null;
    gateway: PaymentGateway;
    orders: OrdersService;
    metrics: ShopMetrics;
    mailWritten: () => void;
  },
) {
  const { catalogue, catalogueEvents, databaseCatalogue, gateway, orders, metrics, mailWritten } = parts;
  const stock = databaseCatalogue
    ? new StockService({ db: database.db, engine: database.engine, events: catalogueEvents, log, reservationMs: config.RESERVATION_MINUTES * 60_000, intents: gateway, telemetry: metrics })
    : null;
  const refunds = new RefundsService({ db: database.db, orders, gateway, stock, log, mailWritten, telemetry: metrics });
  const payments = new PaymentsService({
    refunds,
    db: database.db,
    catalogue,
    gateway,
    orders,
    stock,
    log,
    telemetry: metrics,
    createLimitPerMinute: config.PAYMENT_CREATE_RATE_LIMIT,
    maxUnitsPerProduct: config.MAX_UNITS_PER_PRODUCT,
  });
  return { stock, refunds, payments };
}
