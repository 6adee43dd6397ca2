import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Schema } from "../db/schema.ts";

/** One word of a query: a prefix of index terms, or one of the terms one typo away from it. */
export interface QueryWord {
  prefix: string;
  neighbours: string[];
}

/** Which products of a match: those with a query word in the title, or those without. */
type Part = "title" | "elsewhere";

/** The products a query matches: every word (`all`) or any of them. */
interface Match {
  words: QueryWord[];
  all: boolean;
}

/** What one engine's full-text index answers (the engine's own SQL; the ranking rules below). */
export interface FullTextEngine {
  count(match: Match): Promise<number>;
  /** The best `limit` of a part: by the engine's relevance (BM25, ts_rank) when `ranked`, else the newest (highest ids). */
  part(match: Match, part: Part, limit: number, ranked: boolean): Promise<number[]>;
  /** Every term the index holds. */
  terms(): Promise<string[]>;
}

/**
 * Scoring costs a microsecond or two per matched product on both engines, and past a few thousand
 * matches (a letter or two, a word that names a whole kind of product) its order says little: such
 * a query shows the newest first instead, title matches still ahead of the rest, which either engine
 * answers from its index without reading every match.
 */
export const RANK_AT_MOST = 2_000;

/** Counts kept: at most this many, until the catalogue's words change. */
const BROAD_COUNTS_KEPT = 1_000;
/** A count of fewer matches is not kept: it costs a millisecond or two. */
const BROAD_FROM = 500;

/**
 * The counts of broad queries (more than BROAD_FROM matches). Counting every match is the one
 * step neither engine can cut short (PostgreSQL reads each matching row: ~50 ms for 100,000),
 * and the broad queries are the short ones every shopper types on the way to a word ("la" for
 * "lamp"), so they repeat. Emptied whenever the catalogue's words change.
 */
export class BroadCounts {
  private readonly counts = new Map<string, number>();
  /** Bumped by every clear: a count begun before one is not kept. */
  version = 0;

  get(key: string): number | undefined {
    return this.counts.get(key);
  }

  set(key: string, total: number, version: number): void {
    if (total <= BROAD_FROM || version !== this.version) return;
    if (this.counts.size >= BROAD_COUNTS_KEPT) this.counts.delete(this.counts.keys().next().value!);
    this.counts.set(key, total);
  }

  clear(): void {
    this.version += 1;
    this.counts.clear();
  }
}

/**
 * How many products match `words` and the best `limit` of them: those with every word, or, when
 * none has them all, those with any. Title matches come before the others.
 */
export async function bestMatches(engine: FullTextEngine, words: QueryWord[], limit: number, broad: BroadCounts): Promise<{ total: number; ids: number[] }> {
  for (const all of words.length > 1 ? [true, false] : [true]) {
    const match = { words, all };
    const key = JSON.stringify(match);
    const version = broad.version;
    const total = broad.get(key) ?? (await engine.count(match));
    broad.set(key, total, version);
    if (total === 0) continue;
    const ranked = total <= RANK_AT_MOST;
    const ids = await engine.part(match, "title", limit, ranked);
    if (ids.length < limit) ids.push(...(await engine.part(match, "elsewhere", limit - ids.length, ranked)));
    return { total, ids };
  }
  return { total: 0, ids: [] };
}

// SQLite: FTS5 match expressions. Every term is a quoted string (nothing in it is syntax); the
// prefix-indexed "word"* finds the terms that begin with it.
const quoted = (term: string) => `"${term.replaceAll('"', '""')}"`;
const ftsAlternatives = (word: QueryWord) => [`${quoted(word.prefix)}*`, ...word.neighbours.map(quoted)];

function ftsExpression({ words, all }: Match, part?: Part): string {
  const base = words.map((word) => `(${ftsAlternatives(word).join(" OR ")})`).join(all ? " AND " : " OR ");
  if (!part) return base;
  const inTitle = `{title} : (${words.flatMap(ftsAlternatives).join(" OR ")})`;
  return part === "title" ? `(${base}) AND ${inTitle}` : `(${base}) NOT ${inTitle}`;
}

/** SQLite's FTS5 table `product_search` (title, description, category; products on sale only). */
export function sqliteFullText(db: Kysely<Schema>): FullTextEngine {
  const ids = async (query: ReturnType<typeof sql<{ id: number }>>) => (await query.execute(db)).rows.map((row) => row.id);
  return {
    async count(match) {
      const { rows } = await sql<{ n: number }>`select count(*) as n from product_search where product_search match ${ftsExpression(match)}`.execute(db);
      return Number(rows[0]?.n ?? 0);
    },
    part(match, part, limit, ranked) {
      const expression = ftsExpression(match, part);
      // Title weight 3, category 1.5, description 1: the boosts of the in-memory index.
      return ranked
        ? ids(sql<{ id: number }>`select rowid as id from product_search where product_search match ${expression} order by bm25(product_search, 3.0, 1.0, 1.5), rowid limit ${limit}`)
        : ids(sql<{ id: number }>`select rowid as id from product_search where product_search match ${expression} order by rowid desc limit ${limit}`);
    },
    async terms() {
      const { rows } = await sql<{ term: string }>`select term from product_search_terms`.execute(db);
      return rows.map((row) => row.term);
    },
  };
}

/** PostgreSQL: how many of the newest products a part's newest matches are looked for in first. */
const NEWEST_FIRST = 2_000;

// PostgreSQL: tsquery text for to_tsquery('simple', …). Terms are quoted lexemes.
const lexeme = (term: string, suffix = "") => `'${term.replaceAll("'", "''")}'${suffix}`;
const tsAlternatives = (word: QueryWord) => [lexeme(word.prefix, ":*"), ...word.neighbours.map((term) => lexeme(term))];

function tsQueries({ words, all }: Match): { base: string; title: string } {
  return {
    base: words.map((word) => `(${tsAlternatives(word).join(" | ")})`).join(all ? " & " : " | "),
    title: words.flatMap(tsAlternatives).join(" | "),
  };
}

/**
 * PostgreSQL's generated `products.search_document` (title A, category B, description D) and
 * `search_title`, each with a GIN index over products on sale. ts_rank divides by the logarithm
 * of a product's length (1), as BM25 prefers the shorter of two texts with the same words.
 */
export function postgresFullText(db: Kysely<Schema>): FullTextEngine {
  const ids = async (query: ReturnType<typeof sql<{ id: number }>>) => (await query.execute(db)).rows.map((row) => row.id);
  const matching = (query: string) => sql`archived_at is null and search_document @@ to_tsquery('simple', ${query})`;
  // The planner cannot tell how a part's matches spread over the ids, and a wrong guess reads every
  // row (~80 ms at 100,000). So: the newest products first, where a dense part has its newest; a
  // part too sparse to fill the page there is small, and is read from the GIN indexes and sorted
  // (`id + 0` rules out walking the primary key).
  const newest = async (which: RawBuilder<unknown>, limit: number) => {
    const recent = await ids(sql<{ id: number }>`
      select id from (select id, archived_at, search_document, search_title from products order by id desc limit ${NEWEST_FIRST}) recent
      where ${which} order by id desc limit ${limit}`);
    if (recent.length === limit) return recent;
    return ids(sql<{ id: number }>`select id from products where ${which} order by id + 0 desc limit ${limit}`);
  };
  return {
    async count(match) {
      const { rows } = await sql<{ n: string }>`select count(*) as n from products where ${matching(tsQueries(match).base)}`.execute(db);
      return Number(rows[0]?.n ?? 0);
    },
    part(match, part, limit, ranked) {
      const { base, title } = tsQueries(match);
      const inTitle = sql`search_title @@ to_tsquery('simple', ${title})`;
      const which = sql`${matching(base)} and ${part === "title" ? inTitle : sql`not ${inTitle}`}`;
      if (ranked) return ids(sql<{ id: number }>`select id from products where ${which} order by ts_rank(search_document, to_tsquery('simple', ${base}), 1) desc, id limit ${limit}`);
      return newest(which, limit);
    },
    async terms() {
      const { rows } = await sql<{ word: string }>`select word from ts_stat('select search_document from products where archived_at is null')`.execute(db);
      return rows.map((row) => row.word);
    },
  };
}
