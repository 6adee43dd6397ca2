import { Link } from "react-router";
import type { Route } from "./+types/index";
import { formatCents } from "../../../lib/basket.ts";
import { requireAdmin } from "../../admin/guard.ts";
import { ADMIN_SECTIONS } from "../../admin/nav.ts";
import { pageMeta } from "../../meta.ts";
import { formatCount } from "../../text.ts";

export const handle = { shell: false };

export const meta: Route.MetaFunction = () => pageMeta("Back office", "Run the shop.");

export async function loader({ context }: Route.LoaderArgs) {
  return { overview: await requireAdmin(context).overview() };
}

type Overview = Route.ComponentProps["loaderData"]["overview"];

const count = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** One figure of the overview: what it counts, linked to the list it counts from. */
function Figure({ label, value, to, warn = false }: { label: string; value: string; to: string; warn?: boolean }) {
  return (
    <li className={warn ? "admin-figure admin-figure--warn" : "admin-figure"}>
      <Link to={to}>
        <span className="admin-figure__value">{value}</span> <span className="admin-figure__label">{label}</span>
      </Link>
    </li>
  );
}

function Period({ id, title, figures }: { id: string; title: string; figures: Overview["today"] }) {
  return (
    <section aria-labelledby={id} className="admin-period">
      <h2 id={id}>{title}</h2>
      <ul className="admin-figures">
        <Figure label="orders" value={formatCount(figures.orders)} to="/admin/orders" />
        <Figure label="in sales" value={formatCents(figures.salesCents)} to="/admin/orders" />
        <Figure label={`refunded (${count(figures.refunds, "refund", "refunds")})`} value={formatCents(figures.refundedCents)} to="/admin/audit" />
      </ul>
    </section>
  );
}

export default function AdminOverview({ loaderData: { overview } }: Route.ComponentProps) {
  return (
    <div className="admin-overview">
      <h1 id="admin-heading">Back office</h1>
      <p className="admin__empty">Days start at midnight in the shop&apos;s time zone, {overview.timeZone}.</p>
      <Period id="today-heading" title="Today" figures={overview.today} />
      <Period id="week-heading" title="Last 7 days" figures={overview.lastSevenDays} />
      <section aria-labelledby="attention-heading" className="admin-period">
        <h2 id="attention-heading">Needs a look</h2>
        <ul className="admin-figures">
          <Figure label={`products with ${formatCount(overview.lowStockThreshold)} units or fewer (${formatCount(overview.soldOut)} sold out)`} value={formatCount(overview.lowStock)} to="/admin/products?sort=stock" warn={overview.lowStock > 0} />
          <Figure label="mails waiting" value={formatCount(overview.mailPending)} to="/admin/mail?status=pending" />
          <Figure label="mails failed" value={formatCount(overview.mailFailed)} to="/admin/mail?status=failed" warn={overview.mailFailed > 0} />
        </ul>
      </section>
      <h2 id="sections-heading">Sections</h2>
      <ul className="admin__cards" aria-labelledby="sections-heading">
        {ADMIN_SECTIONS.map((section) => (
          <li key={section.to} className="admin__card">
            <h3>
              <Link to={section.to}>{section.label}</Link>
            </h3>
            <p>{section.description}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
