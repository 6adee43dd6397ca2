import type { ColumnType } from "kysely";

/** The tables as Kysely sees them; migrations.ts creates them. */
export interface Schema {
  settings: SettingsTable;
  payments: PaymentsTable;
  orders: OrdersTable;
  mail_outbox: MailOutboxTable;
  session_revocations: SessionRevocationsTable;
  categories: CategoriesTable;
  products: ProductsTable;
  reservations: ReservationsTable;
  audit_log: AuditLogTable;
  refunds: RefundsTable;
  order_line_refunds: OrderLineRefundsTable;
  product_images: ProductImagesTable;
  /** better-auth's accounts table (it creates and migrates it): only the columns the shop reads. */
  user: UserTable;
}

/** Values the server generates once and every instance shares (e.g. the auth secret). */
export interface SettingsTable {
  key: string;
  value: string;
}

/** bigint: PostgreSQL's driver reads it as a string, SQLite's as a number; written as a number. */
type Bigint = ColumnType<string | number, number, number>;

/** One payment intent per checkout attempt, with the basket as the server priced it. */
export interface PaymentsTable {
  id: string;
  user_id: string;
  gateway: string;
  amount: number;
  currency: string;
  /** JSON: the priced basket snapshot (BasketLine[]). */
  basket: string;
  status: string;
  /** sha256 of the test gateway's client secret; the secret itself is never stored. */
  client_secret_hash: string | null;
  card_brand: string | null;
  card_last4: string | null;
  created: Bigint;
  updated: Bigint;
  /** When the reconciler last asked the gateway about it (epoch ms; 0: never). */
  checked: ColumnType<string | number, number | undefined, number>;
}

export interface OrdersTable {
  /** The payment intent id. */
  id: string;
  user_id: string;
  amount: number;
  basket: string;
  created: Bigint;
  placed: Bigint;
  /** paid, or oversold (paid after its reservation expired, with too few units left); partially_refunded, refunded. */
  status: ColumnType<string, string | undefined, string>;
  /** Cents refunded so far; never more than `amount`. */
  refunded: ColumnType<number, number | undefined, number>;
}

/** One refund, unique by its Idempotency-Key (server/refunds). */
export interface RefundsTable {
  id: string;
  idempotency_key: string;
  fingerprint: string;
  order_id: string;
  amount: number;
  /** JSON: [{ id, amount }], units per line. */
  lines: string;
  reason: string;
  /** 1 when the units went back to stock. */
  restock: number;
  status: "pending" | "succeeded" | "failed";
  gateway_id: string | null;
  actor: string;
  created: Bigint;
  settled: Bigint | null;
}

/** Units bought and refunded per order line, for the per-line refund guard. */
export interface OrderLineRefundsTable {
  order_id: string;
  line_id: number;
  quantity: number;
  refunded: ColumnType<number, number | undefined, number>;
}

export interface CategoriesTable {
  name: string;
}

/** The catalogue; money in integer cents. */
export interface ProductsTable {
  id: number;
  title: string;
  price_cents: number;
  description: string;
  category: string;
  /** An embedded drawing's file name, or an absolute URL. */
  image: string;
  rating_rate: number;
  rating_count: number;
  stock: number;
  /** Units held by live reservations. */
  reserved: ColumnType<number, number | undefined, number>;
  updated: Bigint;
  /** Bumped by every back-office edit; an edit names the version it started from. */
  version: ColumnType<number, number | undefined, number>;
  /** When the back office archived it (epoch ms): gone from the shop, kept on its orders; null while on sale. */
  archived_at: ColumnType<string | number | null, number | null | undefined, number | null>;
}

/** An uploaded product picture, one row per width and format, base64 (server/catalogue/uploaded-images.ts). */
export interface ProductImagesTable {
  image_id: string;
  width: number;
  format: string;
  body: string;
  created: Bigint;
}

/** Units of one product held for one checkout (payment intent) until `expires_at`. */
export interface ReservationsTable {
  payment_id: string;
  product_id: number;
  user_id: string;
  amount: number;
  state: "held" | "sold" | "released" | "expired";
  expires_at: Bigint;
  created: Bigint;
}

/** Mail waiting to be sent, sent, or given up on (server/mail/outbox.ts). */
export interface MailOutboxTable {
  id: string;
  kind: string;
  dedupe_key: string;
  recipient: string;
  /** JSON: what the template needs (server/mail/templates). */
  payload: string;
  status: "pending" | "sent" | "failed";
  attempts: number;
  next_attempt_at: Bigint;
  last_error: string | null;
  created: Bigint;
  sent_at: Bigint | null;
}

/** Ended sessions whose cached cookies every instance refuses until `until` (epoch ms). */
export interface SessionRevocationsTable {
  session_id: string;
  until: Bigint;
}

/** An account, as far as the shop reads it; better-auth owns the table. */
export interface UserTable {
  id: string;
  email: string;
  /** The staff role: "customer" or "admin" (server/auth/staff.ts). */
  role: string | null;
  /** Whether the owner has opened the confirmation mail's link: a boolean on PostgreSQL, 0 or 1 on SQLite. */
  emailVerified: boolean | number;
}

/** Every admin write, append-only (server/audit/log.ts). */
export interface AuditLogTable {
  id: string;
  at: Bigint;
  /** Who: the admin's user id, or null for the command line (`npm run admin`). */
  actor_id: string | null;
  /** Who, as people read it: the admin's email, or "npm run admin". */
  actor: string;
  /** What, e.g. "product.update", "order.refund", "staff.grant". */
  action: string;
  /** On what, e.g. "product:12", "order:pi_...", "user:ada@example.com". */
  target: string;
  /** JSON of the record before and after the write; null where there was none (a creation). */
  before: string | null;
  after: string | null;
}
