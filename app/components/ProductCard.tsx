import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link } from "./Link.tsx";
import type { Product } from "../../server/catalogue/product.ts";
import { LIVE, TAPPED, takeEarlyTaps } from "../basket/early-taps.ts";
import { useStore } from "../basket/store.tsx";
import { availabilityText, inStock } from "../../lib/stock.ts";
import { Price } from "./Price.tsx";
import { shorten } from "../text.ts";
import { Rating } from "./Rating.tsx";

/**
 * What a card shows of a product. The description only matters to a card that shows it or adds the
 * product to the basket: the orders page's lines come without one (app/orders/page-order.ts).
 */
type CardProduct = Pick<Product, "id" | "title" | "image" | "imageSrcSet" | "rating" | "priceCents" | "stock"> & Partial<Pick<Product, "description">>;

export interface ProductCardProps {
  product: CardProduct;
  /** Image beside the text instead of above it (checkout and orders). */
  flex?: boolean;
  showDescription?: boolean;
  showAdd?: boolean;
  /** Says "In stock" too (the product page); every card says "Only 3 left in stock." or "Currently unavailable.". */
  showStock?: boolean;
  /** Eager, high-priority image: for a card that is the page's main content. */
  priority?: boolean;
  headingLevel?: 1 | 2 | 3;
  /** The title with some words marked (search results); the plain title otherwise. */
  highlightedTitle?: ReactNode;
  /** How wide the image shows, for the browser's pick from its srcset, where the page lays the card out its own way. */
  imageSizes?: string;
  /** More of the item's details, after its price (a basket line's quantity). */
  children?: ReactNode;
}

// How wide the image shows in the usual layouts (ProductCard.css, app.css): at most 220 px in a grid,
// two columns on a phone; 160 px beside the text in the flexed card, up to 200 px on a phone.
const GRID_IMAGE_SIZES = "(max-width: 600px) 45vw, 220px";
const FLEX_IMAGE_SIZES = "(max-width: 600px) 200px, 160px";

const SHORT_DESCRIPTION = 140;

export function ProductCard({ product, flex, showDescription, showAdd, showStock, priority, headingLevel = 3, highlightedTitle, imageSizes, children }: ProductCardProps) {
  const [, dispatch] = useStore();
  const [expanded, setExpanded] = useState(false);
  const Heading = (["h1", "h2", "h3"] as const)[headingLevel - 1]!;
  const description = product.description ?? "";
  // A toggle that would reveal only a few more words is noise: show such a text whole.
  const long = description.length > SHORT_DESCRIPTION + 20;
  const addButton = useRef<HTMLButtonElement>(null);
  const available = inStock(product.stock);
  const low = product.stock != null && product.stock <= 5;
  const availability = showStock || low ? availabilityText(product.stock) : null;
  // Taps on this card's button before the app had hydrated count now (see early-taps.ts).
  useEffect(() => {
    if (!showAdd || !available) return;
    for (let taps = takeEarlyTaps(product.id); taps > 0; taps--) dispatch({ type: "ADD_TO_BASKET", item: { ...product, description } });
    addButton.current?.removeAttribute(TAPPED);
    addButton.current?.setAttribute(LIVE, "");
  }, [showAdd, available, product, description, dispatch]);
  return (
    <article className={`card${flex ? " card--flex" : ""}${available ? "" : " card--out"}`} aria-label={product.title}>
      <Link to={`/products/${product.id}`} className="card__image-link">
        <img
          className="card__image"
          src={product.image}
          srcSet={product.imageSrcSet}
          sizes={product.imageSrcSet ? (imageSizes ?? (flex ? FLEX_IMAGE_SIZES : GRID_IMAGE_SIZES)) : undefined}
          alt={product.title}
          width="400"
          height="400"
          loading={priority ? "eager" : "lazy"}
          fetchPriority={priority ? "high" : "auto"}
          decoding="async"
        />
      </Link>
      <div className="card__body">
        <Heading className="card__title">{highlightedTitle ?? product.title}</Heading>
        <Rating rate={product.rating.rate} count={product.rating.count} />
        <Price cents={product.priceCents} className="price card__price" />
        {showDescription && (
          <div className="card__description">
            <p>{long && !expanded ? shorten(description, SHORT_DESCRIPTION) : description}</p>
            {long && (
              <button type="button" className="link-button" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
                {expanded ? "Show Less" : "Show More"}
              </button>
            )}
          </div>
        )}
        {availability && (
          <div className={`card__stock${low ? " card__stock--low" : ""}`} data-stock={product.stock}>
            {availability}
          </div>
        )}
        {children}
        {showAdd && available && (
          <button
            type="button"
            className="button-primary card__add"
            ref={addButton}
            data-add-to-basket={product.id}
            onClick={() => dispatch({ type: "ADD_TO_BASKET", item: { ...product, description } })}
          >
            Add to cart
          </button>
        )}
        {showAdd && !available && (
          <button type="button" className="button-primary card__add" disabled>
            Out of stock
          </button>
        )}
      </div>
    </article>
  );
}
