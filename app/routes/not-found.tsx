import { data, Link } from "react-router";
import type { Route } from "./+types/not-found";
import { pageMeta } from "../meta.ts";

export const meta: Route.MetaFunction = () => pageMeta("Page not found", "This page does not exist.");

export function loader() {
  return data(null, { status: 404 });
}

export default function NotFound() {
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
