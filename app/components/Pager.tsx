import { useLocation } from "react-router";
import { Link } from "./Link.tsx";
import { withPage } from "./list-query.ts";

/**
 * "Previous" and "Next" under a list of several pages: plain links (`?page=n`, every other
 * parameter such as the order kept), so they work before and without JavaScript; nothing for a
 * list of one page.
 */
export function Pager({ path, page, pages }: { path: string; page: number; pages: number }) {
  const { search } = useLocation();
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      {page > 1 ? (
        <Link to={`${path}${withPage(search, page - 1)}`} rel="prev" className="pager__link">
          Previous
        </Link>
      ) : (
        <span className="pager__link pager__link--none" />
      )}
      <span className="pager__where">{`Page ${page} of ${pages}`}</span>
      {page < pages ? (
        <Link to={`${path}${withPage(search, page + 1)}`} rel="next" className="pager__link">
          Next
        </Link>
      ) : (
        <span className="pager__link pager__link--none" />
      )}
    </nav>
  );
}
