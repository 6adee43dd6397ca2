import { Link } from "./Link.tsx";

/** What any unknown address shows, under the shared header. */
export function NotFound() {
  return (
    <section className="panel narrow">
      <h1>Page not found</h1>
      <p>Sorry, we couldn't find that page.</p>
      <p>
        <Link to="/">Go to the Storefront home page</Link>
      </p>
    </section>
  );
}
