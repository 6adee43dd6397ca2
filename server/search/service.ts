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
  /** The best `limit` matches, best first. */
  hits: SearchHit[];
}

/** What pages (through the load context) and /api/search use. */
export interface SearchService {
  /** Never rejects: a catalogue outage, or any other failure, answers no results. */
  query(raw: string, limit: number): Promise<SearchResults>;
  /** Stops following the catalogue's changes. */
  close(): void;
}

/**
 * Search over whatever the catalogue holds, embedded or remote. Every query reads `list()` (the
 * catalogue's own cache makes that cheap), so the remote adapter notices a refresh and fires
 * `onChange`; the index is rebuilt from the new products the next time it is needed.
 */
export class CatalogueSearch implements SearchService {
  /** Bumped by every catalogue change; an index is current while its generation equals this. */
  private generation = 0;
  private built: { generation: number; index: ProductIndex } | undefined;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly catalogue: Catalogue,
    private readonly log: Logger,
  ) {
    this.unsubscribe = catalogue.onChange(() => {
      this.generation += 1;
    });
  }

  async query(raw: string, limit: number): Promise<SearchResults> {
    const query = cleanQuery(raw);
    if (!query) return { query, total: 0, hits: [] };
    try {
      const hits = (await this.index()).search(query);
      return { query, total: hits.length, hits: hits.slice(0, limit) };
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
    // Tagged with the generation from before the read: if a change is announced while list() is
    // pending, these products may be the old ones, and the tag makes the next query rebuild.
    const generation = this.generation;
    const products = await this.catalogue.list();
    if (this.built && this.built.generation === this.generation) return this.built.index;
    const index = new ProductIndex(products);
    this.built = { generation, index };
    return index;
  }
}
