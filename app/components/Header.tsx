import { Link } from "react-router";
import flagUs from "../assets/flag-us.svg";
import logo from "../assets/logo.svg";
import { basketCount } from "../basket/reducer.ts";
import { useStore } from "../basket/store.tsx";
import { itemCount } from "../text.ts";
import { CaretIcon, CartIcon, LocationIcon, MenuIcon, SearchIcon } from "./Icons.tsx";
import "./Header.css";

const STRIP = ["Today's Deal", "Customer Service", "Registry", "Gift Cards", "Sell"];

/** The page header of spec section 1, shared by every page. */
export function Header() {
  const [{ basket }] = useStore();
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

        <form className="header__search" role="search" onSubmit={(event) => event.preventDefault()}>
          <select className="header__search-scope" aria-label="Search in" defaultValue="All">
            <option>All</option>
          </select>
          <input className="header__search-input" type="search" aria-label="Search Storefront" placeholder="Search Storefront" />
          <button className="header__search-button" type="submit" aria-label="Search">
            <SearchIcon />
          </button>
        </form>

        <Link to="/language" className="header__language header__box" aria-label="Language: English (EN)">
          <img src={flagUs} width="24" height="16" alt="" />
          <span className="header__strong">EN</span>
          <CaretIcon />
        </Link>

        <Link to="/auth" className="header__account header__box">
          <span className="header__small">Hello, Sign In</span>{" "}
          <span className="header__strong">Account &amp; Lists</span>
        </Link>

        <Link to="/orders" className="header__orders header__box">
          <span className="header__small">Returns</span>{" "}
          <span className="header__strong">&amp; Orders</span>
        </Link>

        <Link to="/cart" className="header__cart header__box" aria-label={`Cart, ${items}`}>
          <CartIcon />
          <span className="header__cart-count" data-testid="cart-count">
            {count}
          </span>
          <span className="header__strong header__cart-label">Cart</span>
        </Link>
        <span className="visually-hidden" aria-live="polite" aria-atomic="true">
          {`${items} in your cart`}
        </span>
      </div>

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
    </header>
  );
}
