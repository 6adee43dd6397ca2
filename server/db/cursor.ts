import { type RawBuilder, sql } from "kysely";

/**
 * Where a newest-first page ends: the last row's time and id (ties broken by id). On the wire it
 * is "<time>.<id>", opaque to clients.
 */
export interface TimeCursor {
  at: number;
  id: string;
}

export const encodeCursor = (cursor: TimeCursor): string => `${cursor.at}.${cursor.id}`;

export function decodeCursor(raw: string): TimeCursor | null {
  const match = /^(\d{1,15})\.([\w-]{1,255})$/.exec(raw);
  return match ? { at: Number(match[1]), id: match[2]! } : null;
}

/** `limit + 1` rows read: the page, and the cursor of the next one when there are more. */
export function pageOf<Row>(rows: Row[], limit: number, cursorOf: (row: Row) => TimeCursor): { rows: Row[]; next: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, next: rows.length > limit && last ? encodeCursor(cursorOf(last)) : null };
}

/**
 * The rows strictly after `cursor` in a newest-first listing by (`time`, `id`): older, or as old
 * with a smaller id. Column names are references (e.g. "o.created"), never user input.
 */
export const olderThan = (cursor: TimeCursor, time: string, id: string): RawBuilder<boolean> =>
  sql<boolean>`(${sql.ref(time)} < ${cursor.at} or (${sql.ref(time)} = ${cursor.at} and ${sql.ref(id)} < ${cursor.id}))`;
