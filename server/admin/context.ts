import type { SessionUser } from "../auth/auth.ts";
import type { Services } from "../services.ts";
import type { Actor, AuditPage } from "./audit.ts";
import type { ProductsAdmin } from "./products.ts";

/**
 * What the back office's pages may do, handed to their loaders and actions only when the admin gate
 * has let the request in (load-context.ts); anyone else's pages have `admin: null` and answer 404.
 * Every write goes through a service that records `actor` in the audit log.
 */
export interface AdminContext {
  actor: Actor;
  audit: { page(query: { limit: number; before?: string }): Promise<AuditPage> };
  /** /admin/products: the same service as /api/admin/products. */
  products: ProductsAdmin;
}

export function adminContext(services: Pick<Services, "audit" | "products">, staff: SessionUser): AdminContext {
  return {
    actor: { id: staff.uid, name: staff.email },
    audit: services.audit,
    products: services.products,
  };
}
