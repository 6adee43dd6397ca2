import type { Route } from "./+types/payment";
import { requireSignIn } from "../auth/guard.ts";
import { pageMeta } from "../meta.ts";

export const meta: Route.MetaFunction = () => pageMeta("Checkout", "Pay for your Storefront order.");

// Nobody can be signed in until accounts arrive, so every visitor is sent to sign in (spec section 6).
export function loader() {
  return requireSignIn("/payment");
}

export default function Payment() {
  return null;
}
