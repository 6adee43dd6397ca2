import type { Kysely } from "kysely";
import type { Catalogue, CatalogueChange } from "../catalogue/catalogue.ts";
import type { Engine } from "../db/database.ts";
import type { Schema } from "../db/schema.ts";
import type { Logger } from "../log.ts";
import { BroadCounts, bestMatches, type FullTextEngine, postgresFullText, type QueryWord, sqliteFullText } from "./full-text.ts";
import { markMatching } from "./highlight.ts";
import type { SearchResults, SearchService } from "./service.ts";
import { cleanQuery, normalizeTerm, words } from "./text.ts";
import { Vocabulary } from "./vocabulary.ts";

// Typos are forgiven only in words long enough that one slip still leaves them recognisable: with
// fuzzy matching on short words "ring" would also find "king" and "rind".
const FUZZY_MIN_LENGTH = 5;
/** Terms one typo away taken per word: a bound on the query the database is sent. */
const NEIGHBOURS_AT_MOST = 32;
/** A change naming more products than this reads the whole vocabulary again rather than their words. */
const REREAD_OVER = 500;
/** Distinct words searched for: what one request can ask the database to do stays bounded. */
const WORDS_AT_MOST = 10;

/** The distinct index terms of a query, at most WORDS_AT_MOST. */
export function queryTerms(query: string): string[] {
  const terms = new Set(words(query).flatMap((word) => words(normalizeTerm(word))));
  return [...terms].slice(0, WORDS_AT_MOST);
}

/** Whether a title word's index term is one the query matched: a word's beginning, or a neighbour it was taken for. */
const matcher = (queryWords: QueryWord[]) => (term: string) =>
  queryWords.some((word) => term.startsWith(word.prefix) || word.neighbours.includes(term));

/**
 * Search on the shop's database (the database catalogue, on either engine): the engine's own
 * full-text index finds and ranks (full-text.ts), so the products' words never sit in this
 * process, and a product is found as soon as the write that added or changed it has committed, on
 * every instance. Typos: the index's vocabulary, kept here, turns a misspelt word of five or more
 * letters into the terms one edit away. It follows the catalogue: the words of the products a
 * change names are added (terms of products since changed or archived stay, finding nothing), and
 * a change of everything (an import) reads the index's terms again.
 */
export class DatabaseSearch implements SearchService {
  private readonly engine: FullTextEngine;
  private readonly broad = new BroadCounts();
  private vocabulary: Promise<Vocabulary> | null = null;
  /** Changes not yet taken into the vocabulary, taken one after the other. */
  private taking: Promise<void> = Promise.resolve();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly catalogue: Catalogue,
    private readonly database: { db: Kysely<Schema>; engine: Engine },
    private readonly log: Logger,
  ) {
    this.engine = database.engine === "postgres" ? postgresFullText(database.db) : sqliteFullText(database.db);
    this.unsubscribe = catalogue.onChange((change) => this.changed(change));
  }

  async query(raw: string, limit: number, offset = 0): Promise<SearchResults> {
    const query = cleanQuery(raw);
    const terms = queryTerms(query);
    if (terms.length === 0) return { query, total: 0, hits: [] };
    try {
      const vocabulary = await this.terms();
      const queryWords = terms.map((prefix) => ({ prefix, neighbours: prefix.length >= FUZZY_MIN_LENGTH ? vocabulary.neighbours(prefix, NEIGHBOURS_AT_MOST) : [] }));
      // A later page ranks the ones before it too: ranks are only known from the top.
      const { total, ids } = await bestMatches(this.engine, queryWords, offset + limit, this.broad);
      const products = await this.catalogue.byIds(ids.slice(offset));
      const matched = matcher(queryWords);
      return { query, total, hits: products.map((product) => ({ product, title: markMatching(product.title, matched) })) };
    } catch (error) {
      this.log.error({ err: error }, "search failed; answering no results");
      return { query, total: 0, hits: [] };
    }
  }

  /** Resolves once every change heard so far is in the vocabulary (tests). */
  async settled(): Promise<void> {
    await this.taking;
  }

  close(): void {
    this.unsubscribe();
  }

  /** The vocabulary, read from the index the first time and again after a failed read. */
  private terms(): Promise<Vocabulary> {
    if (this.vocabulary) return this.vocabulary;
    const reading = this.engine.terms().then((terms) => new Vocabulary(terms));
    this.vocabulary = reading;
    reading.catch(() => {
      if (this.vocabulary === reading) this.vocabulary = null;
    });
    return reading;
  }

  private changed(change: CatalogueChange | undefined): void {
    // A sale or a reservation changes no words.
    if (change?.stockOnly) return;
    this.broad.clear();
    const ids = change?.ids ?? null;
    this.taking = this.taking.then(async () => {
      try {
        if (ids === null || ids.length > REREAD_OVER) {
          const fresh = await this.engine.terms();
          this.vocabulary = Promise.resolve(new Vocabulary(fresh));
        } else if (ids.length > 0 && this.vocabulary) {
          const vocabulary = await this.vocabulary;
          for (const term of await this.wordsOf(ids)) vocabulary.add(term);
        }
      } catch (error) {
        // The next query reads the whole vocabulary again.
        this.vocabulary = null;
        this.log.error({ err: error }, "search vocabulary update failed; reading it again on the next search");
      }
    });
  }

  /** The index terms of some products' title, description and category. */
  private async wordsOf(ids: number[]): Promise<string[]> {
    const rows = await this.database.db.selectFrom("products").select(["title", "description", "category"]).where("id", "in", ids).execute();
    return rows.flatMap((row) => [row.title, row.description, row.category].flatMap((text) => words(text).map(normalizeTerm)));
  }
}
