import type { Catalogue } from "../catalogue/catalogue.ts";
import { CatalogueUnavailableError } from "../catalogue/catalogue.ts";
import type { Logger } from "../log.ts";
import { ProductIndex, type SearchHit } from "./product-index.ts";
import { cleanQuery } from "./text.ts";

export type { SearchHit } from "./product-index.ts";
export type { TitlePart } from "./highlight.ts";

export interface SearchResults {
  /** The query as searched: tidied and cut to at most 200 characters (empty when there was none). */
  query: string;
  /** How many products match, however many `hits` holds. */
  total: number;
  /** The best matches from `offset` on, at most `limit` of them, best first. */
  hits: SearchHit[];
}

/** What pages (through the load context) and /api/search use. */
export interface SearchService {
  /** Never rejects: a catalogue outage, or any other failure, answers no results. */
  query(raw: string, limit: number, offset?: number): Promise<SearchResults>;
  /** Stops following the catalogue's changes. */
  close(): void;
}

/** More changed products than this since the last query: a new index is quicker than updating this one. */
const UPDATE_AT_MOST = 500;

/**
 * Search over whatever the catalogue holds, embedded or remote. Every query reads `list()` (the
 * catalogue's own cache makes that cheap), so the remote adapter notices a refresh and fires
 * `onChange`. The index follows the changes the next time it is needed: the products a change names
 * are taken again (a sale, an edit), and a change that names none (a remote refresh) builds it anew.
 */
export class CatalogueSearch implements SearchService {
  /** What changed since the index was last brought up to date: these ids, or anything ("all"). */
  private changes: Set<number> | "all" = "all";
  /** Counts the changes heard, so a query knows whether one arrived while it read the products. */
  private heard = 0;
  private built: ProductIndex | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly catalogue: Catalogue,
    private readonly log: Logger,
  ) {
    this.unsubscribe = catalogue.onChange((change) => {
      this.heard += 1;
      if (!change || change.ids === null || this.changes === "all") this.changes = "all";
      else for (const id of change.ids) this.changes.add(id);
    });
  }

  async query(raw: string, limit: number, offset = 0): Promise<SearchResults> {
    const query = cleanQuery(raw);
    if (!query) return { query, total: 0, hits: [] };
    try {
      const hits = (await this.index()).search(query);
      return { query, total: hits.length, hits: hits.slice(offset, offset + limit) };
    } catch (error) {
      // The catalogue adapter has logged its own failure; anything else is ours and worth a line.
      if (!(error instanceof CatalogueUnavailableError)) this.log.error({ err: error }, "search failed; answering no results");
      return { query, total: 0, hits: [] };
    }
  }

  close(): void {
    this.unsubscribe();
  }

  private async index(): Promise<ProductIndex> {
    const heard = this.heard;
    const listed = await this.catalogue.listed();
    const changes = this.changes;
    if (this.built && changes !== "all" && changes.size === 0) return this.built;
    const products = await this.catalogue.byIds(changes === "all" || !this.built || changes.size > UPDATE_AT_MOST ? listed.map((p) => p.id) : [...changes]);
    // A change announced while the products were read may not be in them: it stays, and the next
    // query takes its products again (taking a product twice does no harm).
    if (this.heard === heard) this.changes = new Set();
    if (this.built && changes !== "all" && changes.size <= UPDATE_AT_MOST) {
      this.built.update(changes, products);
      return this.built;
    }
    this.built = new ProductIndex(products);
    return this.built;
  }
}
