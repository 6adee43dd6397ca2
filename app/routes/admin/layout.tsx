import { NavLink, Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { requireAdmin } from "../../admin/guard.ts";
import { ADMIN_SECTIONS } from "../../admin/nav.ts";

/**
 * Marks this layout and every route under it as the back office: the server's guard
 * (server/admin/gate.ts) lets only an admin reach them, whatever the spelling of the address, and
 * shows anyone else the shop's unknown-address page.
 */
export const handle = { backOffice: true, shell: false };

export function loader({ context }: Route.LoaderArgs) {
  const admin = requireAdmin(context);
  return { admin: admin.actor.name, timeZone: admin.timeZone };
}

/** The back office's frame: the shop's header above, its sections beside (below, on a phone). */
export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="admin">
      <nav className="admin__nav" aria-label="Back office">
        <p className="admin__who">
          Back office <span>{loaderData.admin}</span>
        </p>
        <ul>
          <li>
            <NavLink to="/admin" end>
              Overview
            </NavLink>
          </li>
          {ADMIN_SECTIONS.map((section) => (
            <li key={section.to}>
              <NavLink to={section.to}>{section.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="admin__body">
        <Outlet />
      </div>
    </div>
  );
}
