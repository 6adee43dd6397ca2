import { useState } from "react";
import { Link } from "react-router";
import type { Product } from "../../server/catalogue/product.ts";
import { useStore } from "../basket/store.tsx";
import { Price } from "./Price.tsx";
import { shorten } from "../text.ts";
import { Rating } from "./Rating.tsx";
import "./ProductCard.css";

type CardProduct = Pick<Product, "id" | "title" | "image" | "rating" | "priceCents" | "description">;

export interface ProductCardProps {
  product: CardProduct;
  /** Image beside the text instead of above it (checkout and orders). */
  flex?: boolean;
  showDescription?: boolean;
  showAdd?: boolean;
  /** Eager, high-priority image: for a card that is the page's main content. */
  priority?: boolean;
  headingLevel?: 1 | 2 | 3;
}

const SHORT_DESCRIPTION = 140;

export function ProductCard({ product, flex, showDescription, showAdd, priority, headingLevel = 3 }: ProductCardProps) {
  const [, dispatch] = useStore();
  const [expanded, setExpanded] = useState(false);
  const Heading = (["h1", "h2", "h3"] as const)[headingLevel - 1]!;
  // A toggle that would reveal only a few more words is noise: show such a text whole.
  const long = product.description.length > SHORT_DESCRIPTION + 20;
  return (
    <article className={`card${flex ? " card--flex" : ""}`} aria-label={product.title}>
      <Link to={`/products/${product.id}`} className="card__image-link">
        <img
          className="card__image"
          src={product.image}
          alt={product.title}
          width="400"
          height="400"
          loading={priority ? "eager" : "lazy"}
          fetchPriority={priority ? "high" : "auto"}
          decoding="async"
        />
      </Link>
      <div className="card__body">
        <Heading className="card__title">{product.title}</Heading>
        <Rating rate={product.rating.rate} count={product.rating.count} />
        <Price cents={product.priceCents} className="price card__price" />
        {showDescription && (
          <div className="card__description">
            <p>{long && !expanded ? shorten(product.description, SHORT_DESCRIPTION) : product.description}</p>
            {long && (
              <button type="button" className="link-button" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
                {expanded ? "Show Less" : "Show More"}
              </button>
            )}
          </div>
        )}
        {showAdd && (
          <button type="button" className="button-primary card__add" onClick={() => dispatch({ type: "ADD_TO_BASKET", item: product })}>
            Add to cart
          </button>
        )}
      </div>
    </article>
  );
}
