import { Link } from "./Link.tsx";

/** A home-page tile: a category's picture with a Shop Now link to its results. */
export function CategoryTile({ title, category, image }: { title: string; category: string; image: string }) {
  const href = `/results/${encodeURIComponent(category)}`;
  return (
    <article className="tile">
      <h2 className="tile__title">{title}</h2>
      <Link to={href} className="tile__image" tabIndex={-1} aria-hidden="true">
        <img src={image} alt="" width="300" height="300" loading="lazy" decoding="async" />
      </Link>
      <Link to={href} className="tile__link" aria-label={`Shop Now: ${title}`}>
        Shop Now
      </Link>
    </article>
  );
}
