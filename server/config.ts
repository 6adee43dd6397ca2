import path from "node:path";
import { z } from "zod";
import { otelVariables } from "./observability/otel-config.ts";

const port = z.coerce.number().int().min(0).max(65_535);
const positiveInt = z.coerce.number().int().positive();
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" });

/** "https://a.example, https://b.example:8443" -> their origins; anything with a path, query or user is refused. */
const originList = z.string().transform((text, context) => {
  const origins: string[] = [];
  for (const item of text.split(/[\s,]+/).filter(Boolean)) {
    let url: URL | null = null;
    try {
      url = new URL(item);
    } catch {
      // reported below
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== "/" || url.search || url.hash || url.username || url.password) {
      context.addIssue({
        code: "custom",
        message: `must be a comma-separated list of http:// or https:// origins (scheme, host and port only); ${JSON.stringify(withoutUserInfo(item))} is not one`,
      });
      return z.NEVER;
    }
    origins.push(url.origin);
  }
  return origins;
});

/** "ada@example.com, bob@example.com" -> the addresses, lower-cased (as accounts store them). */
const emailList = z.string().transform((text, context) => {
  const emails = text.split(/[\s,]+/).filter(Boolean).map((email) => email.toLowerCase());
  const wrong = emails.find((email) => !z.email().safeParse(email).success);
  if (wrong === undefined) return emails;
  context.addIssue({ code: "custom", message: `must be a comma-separated list of email addresses; ${JSON.stringify(wrong)} is not one` });
  return z.NEVER;
});

/** An IANA time zone name ("Europe/Berlin", "UTC") that this Node's Intl knows; offsets like "+02:00" are not names. */
const timeZone = z.string().refine(
  (name) => {
    if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: name });
      return true;
    } catch {
      return false;
    }
  },
  { error: 'must be an IANA time zone name, such as "UTC" or "Europe/Berlin"' },
);

const schema = z.object({
  // Production unless said otherwise: `npm run dev` sets development itself, and the built server
  // never runs in development mode whatever this says (server/serve.ts).
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: port.default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, "must be a postgres:// or postgresql:// URL")
    .optional(),
  // Connections each instance keeps to PostgreSQL (ignored on SQLite). Several instances share the
  // server's max_connections (100 by default), and each holds one more per LISTEN channel (three).
  DATABASE_POOL_SIZE: positiveInt.max(1_000).default(10),
  PUBLIC_URL: httpUrl.optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  CATALOGUE_URL: httpUrl.optional(),
  CATALOGUE_TIMEOUT_MS: positiveInt.default(3_000),
  CATALOGUE_CACHE_SECONDS: z.coerce.number().int().min(0).default(300),
  // How many proxies stand in front of the shop (nginx: 1). Only then is X-Forwarded-For believed,
  // and only its last TRUST_PROXY entries, which those proxies wrote.
  TRUST_PROXY: z
    .union([z.enum(["true", "false"]).transform((v) => (v === "true" ? 1 : 0)), z.coerce.number().int().min(0).max(10)], {
      error: "must be true, false or the number of proxies in front of the shop",
    })
    .default(0),
  // Sign-in and sign-up attempts one client may make per window before it gets 429.
  AUTH_RATE_LIMIT_MAX: positiveInt.default(10),
  AUTH_RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(60),
  // Stripe instead of the built-in test gateway: both keys, or neither.
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_\S+$/, "must be a Stripe secret key (sk_…)").optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().regex(/^pk_\S+$/, "must be a Stripe publishable key (pk_…)").optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\S+$/, "must be a Stripe webhook signing secret (whsec_…)").optional(),
  // Unpaid payment intents are cancelled (at the gateway too) once they are this old.
  PAYMENT_INTENT_TTL_HOURS: positiveInt.default(24),
  // Payment intents one shopper may create per minute before POST /api/payment/create answers 429.
  PAYMENT_CREATE_RATE_LIMIT: positiveInt.default(30),
  // The most units of one product a checkout may ask for: more are refused before any is held.
  MAX_UNITS_PER_PRODUCT: positiveInt.default(10),
  CATALOGUE_IMAGE_ORIGINS: originList.default([]),
  IMAGE_CACHE_MB: positiveInt.default(200),
  // Rendered anonymous pages kept in memory (0: none, every page is rendered afresh).
  PAGE_CACHE_ENTRIES: z.coerce.number().int().min(0).default(500),
  // This instance's name in its live streams' first event, so operators (and the scale-out tests)
  // can see which instance a browser landed on.
  // How long a checkout holds its units before they go back on sale.
  RESERVATION_MINUTES: positiveInt.default(15),
  INSTANCE_NAME: z.string().regex(/^[\w.-]{1,64}$/, "must be 1 to 64 letters, digits, dots, dashes or underscores").default("storefront"),
  // Prometheus metrics (GET /metrics) on a listener of their own; off when METRICS_PORT is unset.
  METRICS_PORT: port.optional(),
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  // OpenTelemetry tracing over OTLP/HTTP, on when an endpoint is set: the standard OTEL_* variables
  // it reads (server/observability/otel-config.ts).
  ...otelVariables,
  // Seconds between SIGTERM and closing: /api/health/ready answers 503 meanwhile while everything
  // else is still served, so a load balancer that probes it stops sending first.
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().int().min(0).max(300).default(0),
  // Mail (server/mail): SMTP when set, else .eml files under DATA_DIR/mail. A secret: never echoed.
  SMTP_URL: z.string().regex(/^smtps?:\/\/\S+$/, "must be an smtp:// or smtps:// URL (smtp://user:pass@host:587)").optional(),
  MAIL_FROM: z.string().regex(/^[^<>]*<[^<>@\s]+@[^<>@\s]+>$|^[^<>@\s]+@[^<>@\s]+$/, "must be an address, or a name and <address>").optional(),
  // The outbox worker: how often it looks for due messages, the first retry's delay (doubling
  // after each failure) and how many attempts a message gets before it ends `failed`.
  MAIL_POLL_MS: positiveInt.default(2_000),
  MAIL_RETRY_BASE_MS: positiveInt.default(30_000),
  MAIL_MAX_ATTEMPTS: positiveInt.default(8),
  // Back office: these accounts are made admins when they sign up or sign in.
  ADMIN_EMAILS: emailList.default([]),
  // The back office's clock: its times and its "today" are in this zone.
  SHOP_TIME_ZONE: timeZone.default("UTC"),
  // The back office marks a product on sale with this many units or fewer as low in stock.
  LOW_STOCK_THRESHOLD: z.coerce.number().int().min(0).max(1_000_000).default(5),
});

export type Config = Omit<z.infer<typeof schema>, "PUBLIC_URL" | "MAIL_FROM"> & {
  PUBLIC_URL: string;
  /** The sender of every mail; by default `Storefront <no-reply@{PUBLIC_URL's host}>`. */
  MAIL_FROM: string;
  /**
   * Origins whose browsers may send state-changing requests: PUBLIC_URL's. Without a PUBLIC_URL
   * the shop is being tried locally, so both spellings of this machine are accepted.
   */
  TRUSTED_ORIGINS: string[];
};

export class ConfigError extends Error {}

/**
 * Variables whose values must never be printed: Stripe's keys, any *_SECRET or *_KEY, SMTP_URL, the
 * collector's headers (they carry its credentials),
 * and any URL that may carry a password (a DATABASE_URL or any other *_URL with an "@" in it), even
 * when malformed: a typo must not put the password in a log.
 */
export function isSecret(name: string, value: string): boolean {
  return /^STRIPE_|_SECRET$|_KEY$|^SMTP_URL$|^OTEL_EXPORTER_OTLP_(TRACES_)?HEADERS$/.test(name) || (name.endsWith("_URL") && value.includes("@"));
}

/**
 * `text` with the user info (`user:password@`) of every URL in it removed. Textual, not `new URL`:
 * the values shown are the ones that failed to parse ("http://u:p@h x").
 */
export function withoutUserInfo(text: string): string {
  return text.replace(/([a-z][a-z\d+.-]*:[/\\]+|\/\/)[^/\\?#]*@/gi, "$1");
}

/** Reads the environment once. Empty strings count as unset, as in most .env tooling. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0]);
    const got = env[name];
    // A secret's value is never printed, nor the password of any URL: start-up errors end up in
    // logs, terminals and CI output.
    const shown = got === undefined || isSecret(name, got) ? "" : ` (got ${JSON.stringify(withoutUserInfo(got))})`;
    throw new ConfigError(`Invalid environment variable ${name}: ${issue.message}${shown}`);
  }
  const config = result.data;
  if (Boolean(config.STRIPE_SECRET_KEY) !== Boolean(config.STRIPE_PUBLISHABLE_KEY)) {
    const name = config.STRIPE_SECRET_KEY ? "STRIPE_PUBLISHABLE_KEY" : "STRIPE_SECRET_KEY";
    throw new ConfigError(`Invalid environment variable ${name}: STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together (or neither, for the built-in test gateway)`);
  }
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, "");
  return {
    ...config,
    DATA_DIR: path.resolve(config.DATA_DIR),
    PUBLIC_URL: publicUrl,
    MAIL_FROM: config.MAIL_FROM ?? `Storefront <no-reply@${new URL(publicUrl).hostname}>`,
    TRUSTED_ORIGINS: config.PUBLIC_URL
      ? [new URL(publicUrl).origin]
      : [`http://localhost:${config.PORT}`, `http://127.0.0.1:${config.PORT}`],
  };
}
