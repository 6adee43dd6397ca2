import type { Catalogue } from "../catalogue/catalogue.ts";
import type { AppDatabase } from "../db/database.ts";
import { pendingCount } from "../mail/outbox.ts";
import type { OrderFeed } from "../orders/feed.ts";
import type { ShopMetrics } from "./metrics.ts";

/**
 * What is read from the services when Prometheus scrapes, rather than counted as it happens: the
 * services keep the truth (open streams, the catalogue's state, the pool), nothing is kept twice.
 */
export function watchServices(metrics: ShopMetrics, services: { database: AppDatabase; catalogue: Catalogue; orderFeed: OrderFeed }): void {
  const { database, catalogue, orderFeed } = services;
  metrics.gauge("storefront_order_streams_open", "Live order streams (SSE) open on this instance.", () => orderFeed.openStreams);
  metrics.stateGauge(
    "storefront_catalogue_state",
    "The catalogue's state: 1 for the current one (fresh, stale: served from the last good copy, unavailable: no copy).",
    ["fresh", "stale", "unavailable"],
    () => catalogue.health().state,
  );
  metrics.gauge("storefront_db_connections_in_use", "Database connections in use (PostgreSQL: checked out of the pool; SQLite: its one connection, while open).", () => {
    const driver = database.driver;
    return driver.engine === "postgres" ? driver.pool.totalCount - driver.pool.idleCount : driver.database.open ? 1 : 0;
  });
  // One count over the outbox's status index per scrape (every 15 s or so), shared by every instance.
  metrics.gauge("storefront_mail_outbox_depth", "Mail waiting in the outbox to be sent (due, or waiting for a retry).", () => pendingCount(database.db).catch(() => Number.NaN));
}
