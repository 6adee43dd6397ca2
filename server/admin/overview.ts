import { type Kysely, sql } from "kysely";
import type { Schema } from "../db/schema.ts";

/** Orders, sales and refunds since a moment: what the overview shows for today and for the last 7 days. */
export interface PeriodFigures {
  /** Epoch ms the period starts at (midnight in the shop's time zone). */
  since: number;
  orders: number;
  salesCents: number;
  refunds: number;
  refundedCents: number;
}

/** What /admin shows at a glance; each figure links to the list it counts. */
export interface AdminOverview {
  timeZone: string;
  today: PeriodFigures;
  lastSevenDays: PeriodFigures;
  /** Products on sale with at most `lowStockThreshold` units (0 included). */
  lowStock: number;
  soldOut: number;
  lowStockThreshold: number;
  mailPending: number;
  mailFailed: number;
}

const DAY = 86_400_000;

/** How far `timeZone`'s wall clock is ahead of UTC at `at` (ms; negative west of Greenwich). */
function offsetAt(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return wall - Math.floor(at / 1000) * 1000;
}

/** The epoch ms of midnight that starts the day `at` falls on, in `timeZone` (summer time included). */
export function startOfDay(at: number, timeZone: string): number {
  const local = at + offsetAt(at, timeZone);
  const midnightWall = local - (((local % DAY) + DAY) % DAY);
  // The offset at midnight may differ from the offset now (a summer-time change during the day).
  return midnightWall - offsetAt(midnightWall - offsetAt(at, timeZone), timeZone);
}

const count = (value: unknown): number => Number(value ?? 0);

async function periodFigures(db: Kysely<Schema>, since: number): Promise<PeriodFigures> {
  const [orders, refunds] = await Promise.all([
    db
      .selectFrom("orders")
      .select((eb) => [eb.fn.countAll<number | string>().as("n"), eb.fn.coalesce(eb.fn.sum<number | string>("amount"), sql<number>`0`).as("cents")])
      .where("created", ">=", since)
      .executeTakeFirst(),
    db
      .selectFrom("refunds")
      .select((eb) => [eb.fn.countAll<number | string>().as("n"), eb.fn.coalesce(eb.fn.sum<number | string>("amount"), sql<number>`0`).as("cents")])
      .where("status", "=", "succeeded")
      .where("created", ">=", since)
      .executeTakeFirst(),
  ]);
  return { since, orders: count(orders?.n), salesCents: count(orders?.cents), refunds: count(refunds?.n), refundedCents: count(refunds?.cents) };
}

/**
 * The overview's figures, read only: orders and sales by when they were paid, refunds that went
 * through by when they were asked, products on sale by their stock, mail by its status.
 */
export async function adminOverview(db: Kysely<Schema>, settings: { timeZone: string; lowStockThreshold: number }, now = Date.now()): Promise<AdminOverview> {
  const today = startOfDay(now, settings.timeZone);
  const weekStart = startOfDay(today - 6 * DAY + DAY / 2, settings.timeZone);
  const [todayFigures, weekFigures, stock, mail] = await Promise.all([
    periodFigures(db, today),
    periodFigures(db, weekStart),
    db
      .selectFrom("products")
      .select((eb) => [
        eb.fn.countAll<number | string>().as("low"),
        eb.fn.sum<number | string>(eb.case().when("stock", "<=", 0).then(1).else(0).end()).as("out"),
      ])
      .where("archived_at", "is", null)
      .where("stock", "<=", settings.lowStockThreshold)
      .executeTakeFirst(),
    db.selectFrom("mail_outbox").select((eb) => ["status", eb.fn.countAll<number | string>().as("n")]).where("status", "in", ["pending", "failed"]).groupBy("status").execute(),
  ]);
  const mailCount = (status: string) => count(mail.find((row) => row.status === status)?.n);
  return {
    timeZone: settings.timeZone,
    today: todayFigures,
    lastSevenDays: weekFigures,
    lowStock: count(stock?.low),
    soldOut: count(stock?.out),
    lowStockThreshold: settings.lowStockThreshold,
    mailPending: mailCount("pending"),
    mailFailed: mailCount("failed"),
  };
}

/** The titles of products by id, archived ones too (the audit log names what it touched). */
export async function productTitles(db: Kysely<Schema>, ids: readonly number[]): Promise<Record<number, string>> {
  const wanted = [...new Set(ids)].filter((id) => Number.isSafeInteger(id));
  if (wanted.length === 0) return {};
  const rows = await db.selectFrom("products").select(["id", "title"]).where("id", "in", wanted).execute();
  return Object.fromEntries(rows.map((row) => [row.id, row.title]));
}
