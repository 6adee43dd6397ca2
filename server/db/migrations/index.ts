import type { Migration } from "kysely";
import settings from "./0001_settings.ts";
import paymentsAndOrders from "./0002_payments_and_orders.ts";
import mailOutbox from "./0003_mail_outbox.ts";
import paymentLifecycle from "./0004_payment_lifecycle.ts";
import sessionRevocations from "./0005_session_revocations.ts";
import catalogueAndStock from "./0006_catalogue_and_stock.ts";
import auditLog from "./0007_audit_log.ts";
import productAdmin from "./0008_product_admin.ts";
import refunds from "./0009_refunds.ts";
import productSearch from "./0010_product_search.ts";

/**
 * Every migration, one file per change, keyed by its file name; they run in name order on both
 * engines (only portable column types, no engine-specific SQL). Never edit one that has shipped:
 * add a new file and list it here (migrations.db.test.ts checks that this list is the folder).
 */
export const migrations: Record<string, Migration> = {
  "0001_settings": settings,
  "0002_payments_and_orders": paymentsAndOrders,
  "0003_mail_outbox": mailOutbox,
  "0004_payment_lifecycle": paymentLifecycle,
  "0005_session_revocations": sessionRevocations,
  "0006_catalogue_and_stock": catalogueAndStock,
  "0007_audit_log": auditLog,
  "0008_product_admin": productAdmin,
  "0009_refunds": refunds,
  "0010_product_search": productSearch,
};
