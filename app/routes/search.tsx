import { Link } from "react-router";
import type { Route } from "./+types/search";
import type { TitlePart } from "../../server/search/service.ts";
import { ProductCard } from "../components/ProductCard.tsx";
import { pageMeta } from "../meta.ts";

export const handle = { shell: true };

// More than the catalogue holds today; a bound so a huge remote catalogue cannot make a huge page.
const PAGE_LIMIT = 100;

// Search pages are endless and thin: keep them out of search engines' indexes.
const NOINDEX = { name: "robots", content: "noindex" };

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const query = loaderData?.query;
  if (!query) return [...pageMeta("Search", "Search the Storefront catalogue."), NOINDEX];
  return [...pageMeta(`Results for "${query}"`, `Products at Storefront matching "${query}".`), NOINDEX];
};

export const headers: Route.HeadersFunction = () => ({ "X-Robots-Tag": "noindex" });

export async function loader({ context, request }: Route.LoaderArgs) {
  return context.search.query(new URL(request.url).searchParams.get("q") ?? "", PAGE_LIMIT);
}

const results = (n: number) => `${n} ${n === 1 ? "result" : "results"}`;

/** The title with the query's words in <mark>; React escapes every part. */
function MarkedTitle({ parts }: { parts: TitlePart[] }) {
  return parts.map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : part.text));
}

export default function Search({ loaderData: { query, total, hits } }: Route.ComponentProps) {
  if (!query) {
    return (
      <section className="panel narrow search-message">
        <h1>Search</h1>
        <p>Type what you are looking for in the search box above, for example "headphones".</p>
      </section>
    );
  }
  if (hits.length === 0) {
    return (
      <section className="panel narrow search-message">
        <h1 className="search__heading">No results for "{query}".</h1>
        <p>
          Check the spelling or try fewer words, or <Link to="/">browse all products</Link>.
        </p>
      </section>
    );
  }
  return (
    <section className="results search">
      <h1 className="page-title search__heading">
        {results(total)} for "<span className="search__query">{query}</span>"
      </h1>
      {hits.length < total && <p className="results__category">Showing the best {hits.length}.</p>}
      <ul className="product-grid">
        {hits.map(({ product, title }) => (
          <li key={product.id}>
            <ProductCard product={product} headingLevel={2} highlightedTitle={<MarkedTitle parts={title} />} />
          </li>
        ))}
      </ul>
    </section>
  );
}
