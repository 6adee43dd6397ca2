import { Form, useNavigation } from "react-router";
import { Link } from "./Link.tsx";
import flagUs from "../assets/flag-us.svg";
import logo from "../assets/logo.svg";
import { basketCount } from "../../lib/basket.ts";
import { useStore } from "../basket/store.tsx";
import { displayName, itemCount } from "../text.ts";
import { SearchForm } from "../search/SearchForm.tsx";
import { fixed } from "./fixed-element.ts";
import { CaretIcon, CartIcon, LocationIcon, MenuIcon } from "./Icons.tsx";

const STRIP = ["Today's Deal", "Customer Service", "Registry", "Gift Cards", "Sell"];

/** The page header of spec section 1, shared by every page. */
export function Header() {
  const [{ basket, user }] = useStore();
  const count = basketCount(basket);
  const items = itemCount(count);
  return (
    <header className="header">
      <div className="header__top">
        <Link to="/" className="header__logo header__box" aria-label="Storefront home">
          <img src={logo} width="100" height="30" alt="" />
        </Link>

        <div className="header__deliver header__box">
          <LocationIcon />
          <div>
            <span className="header__small">Deliver to</span>{" "}
            <span className="header__strong">Ethiopia</span>
          </div>
        </div>

        <SearchForm />

        <Link to="/language" className="header__language header__box" aria-label="EN, language: English">
          <img src={flagUs} width="24" height="16" alt="" />
          <span className="header__strong">EN</span>
          <CaretIcon />
        </Link>

        {user ? (
          <div className="header__account header__box">
            <span className="header__small">Hello {displayName(user.email)}</span>{" "}
            <SignOut />
          </div>
        ) : (
          <Link to="/auth" className="header__account header__box">
            <span className="header__small">Hello, Sign In</span>{" "}
            <span className="header__strong">Account &amp; Lists</span>
          </Link>
        )}

        {user?.role === "admin" && (
          <Link to="/admin" className="header__admin header__box">
            <span className="header__strong">Admin</span>
          </Link>
        )}

        <Link to="/orders" className="header__orders header__box">
          <span className="header__small">Returns</span>{" "}
          <span className="header__strong">&amp; Orders</span>
        </Link>

        {/* Its name starts with what it shows, "Cart" then the count (drawn on the icon), as WCAG's label in name asks. */}
        <Link to="/cart" className="header__cart header__box" aria-label={`Cart, ${items}`}>
          <CartIcon />
          <span className="header__strong header__cart-label">Cart</span>{" "}
          <span className="header__cart-count" data-testid="cart-count">
            {count}
          </span>
        </Link>
        <span className="visually-hidden" aria-live="polite" aria-atomic="true">
          {`${items} in your cart`}
        </span>
      </div>

      <Strip />
    </header>
  );
}

/** The strip under the header's top row: the same on every page (made once on the server: fixed-element.ts). */
const Strip = fixed(() => (
  <div className="header__strip">
    <span className="header__strip-item header__strip-all">
      <MenuIcon />
      All
    </span>
    {STRIP.map((entry) => (
      <span key={entry} className="header__strip-item">
        {entry}
      </span>
    ))}
  </div>
));

/** Ends the session on the server; a plain form, so it works before hydration too. */
function SignOut() {
  const navigation = useNavigation();
  const busy = navigation.formAction === "/sign-out";
  return (
    <Form method="post" action="/sign-out" className="header__sign-out">
      <button type="submit" className="header__strong header__sign-out-button" disabled={busy}>
        Sign Out
      </button>
    </Form>
  );
}
