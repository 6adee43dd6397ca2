import type { Route } from "./+types/home";
import banner1 from "../assets/banners/banner-1.svg";
import banner2 from "../assets/banners/banner-2.svg";
import banner3 from "../assets/banners/banner-3.svg";
import banner4 from "../assets/banners/banner-4.svg";
import banner5 from "../assets/banners/banner-5.svg";
import electronics from "../assets/categories/electronics.svg";
import jewelery from "../assets/categories/jewelery.svg";
import mensClothing from "../assets/categories/mens-clothing.svg";
import womensClothing from "../assets/categories/womens-clothing.svg";
import { Carousel } from "../components/Carousel.tsx";
import { CategoryTile } from "../components/CategoryTile.tsx";
import { data } from "react-router";
import { HydrateLater, cardTurn } from "../components/HydrateLater.tsx";
import { canonicalHref, PAGE_SIZE, pagedTitle, parsePage } from "../components/list-query.ts";
import { Pager } from "../components/Pager.tsx";
import { ProductCard } from "../components/ProductCard.tsx";
import { pageMeta } from "../meta.ts";

export const handle = { shell: true };

const DESCRIPTION = "Shop electronics, jewelry, men's and women's clothing at Storefront, with delivery to Ethiopia.";

// Page 1 is the shop's own title; a later page is named by the list it shows ("All products – page 2 | Storefront").
export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [];
  const { page, canonical } = loaderData;
  return [...pageMeta(page > 1 ? pagedTitle("All products", page) : "Storefront", DESCRIPTION), { tagName: "link", rel: "canonical", href: canonical }];
};

export async function loader({ context, request }: Route.LoaderArgs) {
  const number = parsePage(new URL(request.url).searchParams.get("page"));
  // A page that is not there is the shop's "Page not found" (root.tsx), with its 404.
  if (number === null) throw data(null, { status: 404 });
  const { products, page, pages } = await context.catalogue.page(null, "id", number, PAGE_SIZE);
  if (page > pages) throw data(null, { status: 404 });
  return { products, page, pages, canonical: canonicalHref(context.publicUrl, "/", "id", page) };
}

const SLIDES = [
  { src: banner1, headline: "New season fashion", tagline: "Fresh styles for every day" },
  { src: banner2, headline: "Tech that works as hard as you do", tagline: "Laptops, audio and screens for every desk" },
  { src: banner3, headline: "Sparkle for every occasion", tagline: "Rings, necklaces and earrings to treasure" },
  { src: banner4, headline: "Gifts they’ll unwrap twice", tagline: "Thoughtful picks for everyone on your list" },
  { src: banner5, headline: "Fast delivery to Ethiopia", tagline: "Track every parcel from our door to yours" },
];

// Spec section 2: the four tiles, their labels and the category each opens.
const TILES = [
  { title: "Electronics", category: "electronics", image: electronics },
  { title: "Discover fashion trends", category: "women's clothing", image: womensClothing },
  { title: "Men's Clothing", category: "men's clothing", image: mensClothing },
  { title: "Jewelry", category: "jewelery", image: jewelery },
];

export default function Home({ loaderData: { products, page, pages } }: Route.ComponentProps) {
  return (
    <div className="home">
      <h1 className="visually-hidden">Storefront</h1>
      {/* The banners and tiles open the shop; the later pages go on with its products. */}
      {page === 1 && <Carousel slides={SLIDES} width={1500} height={600} />}
      {page === 1 && (
        <section className="home__tiles" aria-label="Shop by category">
          {TILES.map((tile) => (
            <CategoryTile key={tile.category} {...tile} />
          ))}
        </section>
      )}
      <section className={page === 1 ? "home__products" : "home__products home__products--later"} aria-labelledby="home-products">
        <h2 id="home-products" className="visually-hidden">
          All products
        </h2>
        <ul className="product-grid">
          {products.map((product, i) => (
            // The list is below the fold: its cards hydrate after the rest of the page, a few per task.
            <HydrateLater key={product.id} group={cardTurn(i)}>
              <li>
                <ProductCard product={product} showAdd />
              </li>
            </HydrateLater>
          ))}
        </ul>
        <Pager path="/" page={page} pages={pages} />
      </section>
    </div>
  );
}
