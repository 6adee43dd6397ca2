import type { Route } from "./+types/orders";
import { requireSignIn } from "../auth/guard.ts";
import { pageMeta } from "../meta.ts";

export const meta: Route.MetaFunction = () => pageMeta("Your Orders", "Your Storefront orders.");

// Nobody can be signed in until accounts arrive, so every visitor is sent to sign in (spec section 6).
export function loader() {
  return requireSignIn("/orders");
}

export default function Orders() {
  return null;
}
