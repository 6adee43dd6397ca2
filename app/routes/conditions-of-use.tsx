import type { Route } from "./+types/conditions-of-use";
import { Link } from "../components/Link.tsx";
import { pageMeta } from "../meta.ts";

export const handle = { shell: true };

export const meta: Route.MetaFunction = () => pageMeta("Conditions of Use", "The conditions of using Storefront and buying from it.");

export default function ConditionsOfUse() {
  return (
    <article className="panel notice-page" aria-labelledby="conditions-heading">
      <h1 id="conditions-heading">Conditions of Use</h1>
      <p>These conditions apply when you browse Storefront, create an account and buy from it.</p>

      <h2>Your account</h2>
      <ul>
        <li>You need an account with a working email address to pay and to see your orders. We send a link to confirm the address.</li>
        <li>Keep your password to yourself. Signing out ends the session on this device; resetting your password ends every session.</li>
        <li>You may browse and fill a basket without an account. The basket stays in this browser tab and is gone when you reload.</li>
      </ul>

      <h2>Prices and payment</h2>
      <ul>
        <li>Prices are in US dollars. What you pay is the total shown at checkout, worked out again by our server from the catalogue.</li>
        <li>Cards are charged through our payment provider. We never see or keep your full card number, only its brand and last four digits.</li>
        <li>Units are held for you while you pay, for a limited time. When the hold runs out they go back on sale and you are asked to check your basket.</li>
        <li>One order may hold at most a set number of units of each product.</li>
      </ul>

      <h2>Orders and refunds</h2>
      <ul>
        <li>An order is made once your payment goes through. You find it under Returns &amp; Orders and get a confirmation by email.</li>
        <li>A refund goes back to the card you paid with. You get an email when it is done, and the order shows what was refunded.</li>
      </ul>

      <h2>Your data</h2>
      <p>
        What we keep about you, for how long and why is in our <Link to="/privacy-notice">Privacy Notice</Link>.
      </p>
    </article>
  );
}
