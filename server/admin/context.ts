import type { SessionUser } from "../auth/auth.ts";
import type { Services } from "../services.ts";
import { type OutboxPage, outboxPage } from "../mail/outbox.ts";
import type { Actor, AuditPage } from "../audit/log.ts";
import type { AdminOrders } from "./orders.ts";
import { type AdminOverview, adminOverview, productTitles } from "./overview.ts";
import type { ProductsAdmin } from "./products.ts";

/**
 * What the back office's pages may do, handed to their loaders and actions only when the admin gate
 * has let the request in (load-context.ts); anyone else's pages have `admin: null` and answer 404.
 * Every write goes through a service that records `actor` in the audit log.
 */
export interface AdminContext {
  actor: Actor;
  audit: { page(query: { limit: number; before?: string }): Promise<AuditPage> };
  /** Every customer's orders, one in detail, and refunds (recorded with `actor`). */
  orders: Pick<AdminOrders, "page" | "detail" | "refund">;
  /** The mail outbox: what was sent, what waits, what failed. */
  mail: { page(query: { status?: "pending" | "sent" | "failed"; limit: number; before?: string }): Promise<OutboxPage> };
  /** /admin/products: the same service as /api/admin/products. */
  products: ProductsAdmin;
  /** /admin's figures: today's and the last 7 days' orders, sales, refunds; low stock; mail waiting or failed. */
  overview(): Promise<AdminOverview>;
  /** Product titles by id, for records that name products by id (the audit log). */
  productTitles(ids: readonly number[]): Promise<Record<number, string>>;
  /** The IANA zone the back office shows times in (SHOP_TIME_ZONE). */
  timeZone: string;
  /** At or below this many units a product is low in stock (LOW_STOCK_THRESHOLD). */
  lowStockThreshold: number;
}

/** The shop's settings the back office reads (config.ts); the defaults are the configuration's. */
export interface AdminSettings {
  SHOP_TIME_ZONE: string;
  LOW_STOCK_THRESHOLD: number;
}

export function adminContext(
  services: Pick<Services, "audit" | "database" | "adminOrders" | "products">,
  staff: SessionUser,
  settings: AdminSettings = { SHOP_TIME_ZONE: "UTC", LOW_STOCK_THRESHOLD: 5 },
): AdminContext {
  const { db } = services.database;
  const shop = { timeZone: settings.SHOP_TIME_ZONE, lowStockThreshold: settings.LOW_STOCK_THRESHOLD };
  return {
    actor: { id: staff.uid, name: staff.email },
    audit: services.audit,
    orders: services.adminOrders,
    mail: { page: (query) => outboxPage(services.database.db, query) },
    products: services.products,
    overview: () => adminOverview(db, shop),
    productTitles: (ids) => productTitles(db, ids),
    ...shop,
  };
}
