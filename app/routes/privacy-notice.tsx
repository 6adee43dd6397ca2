import type { Route } from "./+types/privacy-notice";
import { pageMeta } from "../meta.ts";

export const handle = { shell: true };

export const meta: Route.MetaFunction = () => pageMeta("Privacy Notice", "What Storefront stores about you, for how long, its cookies, and how to get a copy or have it deleted.");

export default function PrivacyNotice() {
  return (
    <article className="panel notice-page" aria-labelledby="privacy-heading">
      <h1 id="privacy-heading">Privacy Notice</h1>
      <p>Storefront keeps only what it needs to run your account and your orders. We do not sell your data, show ads or use tracking cookies.</p>

      <h2>What we store</h2>
      <ul>
        <li>
          <strong>Your account:</strong> your email address, a scrambled form of your password (never the password itself), and whether you have confirmed your
          address.
        </li>
        <li>
          <strong>Your orders:</strong> what you bought and at what price, the total, when, any refunds, and your card&apos;s brand and last four digits.
        </li>
        <li>
          <strong>Your sessions:</strong> one record for each device you are signed in on, so that it stays signed in.
        </li>
        <li>
          <strong>Mail we send you:</strong> which mail went to which address and whether it was delivered. Links in password reset and confirmation mail are
          forgotten once the mail is sent.
        </li>
        <li>Sign-in attempts are counted for each network address for a short time, to stop password guessing.</li>
      </ul>
      <p>Your basket is not stored: it lives in the browser tab and is gone when you reload.</p>

      <h2>For how long</h2>
      <ul>
        <li>Your account, until you ask us to delete it.</li>
        <li>Orders and refunds, as long as the law asks us to keep records of sales.</li>
        <li>A session, until you sign out or it has not been used for 7 days; resetting your password ends them all.</li>
        <li>The record of a mail, as long as the order or account it belongs to.</li>
      </ul>

      <h2 id="cookies">Cookies</h2>
      <p>We set only the cookies that keep you signed in, and only once you sign in or create an account:</p>
      <ul>
        <li>
          <strong>storefront.session_token</strong>: says which session is yours. It cannot be read by the page&apos;s scripts and is not sent to other sites.
        </li>
        <li>
          <strong>storefront.session_data</strong>: a signed copy of who you are, kept for one minute, so each page does not have to look you up.
        </li>
      </ul>
      <p>On a secure (https) address both names start with __Secure-. Signing out removes them.</p>

      <h2>A copy of your data, or its deletion</h2>
      <p>
        Write to the people who run this shop from the email address of your account and say what you want: a copy of everything above, or the deletion of
        your account and its sessions. We answer within 30 days. After a deletion we keep only the orders the law asks us to keep, no longer than it asks.
      </p>
    </article>
  );
}
