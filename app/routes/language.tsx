import type { Route } from "./+types/language";
import flagUs from "../assets/flag-us.svg";
import { pageMeta } from "../meta.ts";

export const handle = { shell: true };

export const meta: Route.MetaFunction = () => pageMeta("Language settings", "Choose the language Storefront is shown in.");

export default function Language() {
  return (
    <section className="panel narrow">
      <h1>Language settings</h1>
      <fieldset className="language">
        <legend>Select the language you prefer for browsing and shopping.</legend>
        <label className="language__option">
          <input type="radio" name="language" value="en" defaultChecked /> English - EN
        </label>
      </fieldset>
      <p className="language__note">
        <img src={flagUs} width="24" height="16" alt="" /> Prices are shown in US dollars (USD).
      </p>
    </section>
  );
}
