import { Link } from "react-router";
import type { Route } from "./+types/index";
import { requireAdmin } from "../../admin/guard.ts";
import { ADMIN_SECTIONS } from "../../admin/nav.ts";
import { pageMeta } from "../../meta.ts";

export const handle = { shell: false };

export const meta: Route.MetaFunction = () => pageMeta("Back office", "Run the shop.");

export function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  return null;
}

export default function AdminOverview() {
  return (
    <section aria-labelledby="admin-heading">
      <h1 id="admin-heading">Back office</h1>
      <ul className="admin__cards">
        {ADMIN_SECTIONS.map((section) => (
          <li key={section.to} className="admin__card">
            <h2>
              <Link to={section.to}>{section.label}</Link>
            </h2>
            <p>{section.description}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
