import { Link } from "./Link.tsx";

/** Under every page: back to the top, and the notices the sign-in page names. */
export function Footer() {
  return (
    <footer className="footer">
      <a className="footer__top" href="#top">
        Back to top
      </a>
      <nav className="footer__links" aria-label="Notices">
        <ul>
          <li>
            <Link to="/conditions-of-use">Conditions of Use</Link>
          </li>
          <li>
            <Link to="/privacy-notice">Privacy Notice</Link>
          </li>
        </ul>
      </nav>
    </footer>
  );
}
