import MiniSearch, { type SearchOptions, type SearchResult } from "minisearch";
import type { Product } from "../catalogue/product.ts";
import { markWords, type TitlePart } from "./highlight.ts";
import { normalizeTerm, words } from "./text.ts";

/** One search result: the product, and its title cut into runs with the matched words marked. */
export interface SearchHit {
  product: Product;
  title: TitlePart[];
}

type IndexedField = "title" | "description" | "category";
const FIELDS: IndexedField[] = ["title", "description", "category"];

// Typos are forgiven only in words long enough that one slip still leaves them recognisable: with
// fuzzy matching on short words "ring" would also find "king" and "rind".
const FUZZY_MIN_LENGTH = 5;

const SEARCH: SearchOptions = {
  // A word in the title says more about the product than the same word in its description.
  boost: { title: 3, category: 1.5 },
  // Every word is a prefix, so "lapt" finds the laptop while the shopper is still typing.
  prefix: true,
  fuzzy: (term) => (term.length >= FUZZY_MIN_LENGTH ? 1 : false),
};

/** The words of a match that were found in the title (index terms, as the index holds them). */
function titleTerms(result: SearchResult): string[] {
  return Object.entries(result.match as Record<string, string[]>)
    .filter(([, fields]) => fields.includes("title"))
    .map(([term]) => term);
}

/**
 * A full-text index over a fixed list of products (MiniSearch: BM25 scoring, prefix and fuzzy
 * matching). Built once per catalogue version; searching it is synchronous and never touches
 * the network.
 */
export class ProductIndex {
  private readonly index = new MiniSearch<Product>({
    idField: "id",
    fields: FIELDS,
    tokenize: words,
    processTerm: (term) => normalizeTerm(term) || null,
  });
  private readonly products = new Map<number, Product>();

  constructor(products: readonly Product[]) {
    for (const product of products) this.products.set(product.id, product);
    this.index.addAll([...this.products.values()]);
  }

  /**
   * Takes the products `ids` from `products` again (changed, new, or gone when absent), leaving the
   * rest of the index as it is: a sale or an edit among 10,000 products costs a few entries, not a
   * new index.
   */
  update(ids: Iterable<number>, products: readonly Product[]): void {
    const wanted = new Set(ids);
    for (const id of wanted) {
      if (!this.products.delete(id)) continue;
      this.index.discard(id);
    }
    for (const product of products) {
      if (!wanted.has(product.id)) continue;
      this.products.set(product.id, product);
      this.index.add(product);
    }
  }

  /**
   * The products matching `query`, best first. Products that have every word of the query come
   * first; when none has them all, those with any of them ("red laptop" still finds the laptop).
   * Title matches always rank above matches found only in the description or category; within
   * each group MiniSearch's score decides.
   */
  search(query: string): SearchHit[] {
    let results = this.index.search(query, { ...SEARCH, combineWith: "AND" });
    if (results.length === 0) results = this.index.search(query, { ...SEARCH, combineWith: "OR" });
    const ranked = results.map((result) => ({ result, inTitle: titleTerms(result) }));
    // Array sort is stable, so MiniSearch's score order holds inside each group.
    ranked.sort((a, b) => Number(b.inTitle.length > 0) - Number(a.inTitle.length > 0));
    return ranked.flatMap(({ result, inTitle }) => {
      const product = this.products.get(result.id as number);
      return product ? [{ product, title: markWords(product.title, new Set(inTitle)) }] : [];
    });
  }
}
