import type { CheckoutMode } from "../payments/gateway.ts";
import { type CspDirectives, NONCE } from "./security-headers.ts";

/**
 * The shop's Content-Security-Policy. Production allows only our own origin and each response's
 * nonce; Vite's development server injects inline styles and scripts, so development allows them.
 * Stripe mode adds Stripe.js, its frames and its API, and nothing else. Remote product images come
 * through our own image proxy (/images/remote), never from elsewhere.
 */
export function contentSecurityPolicy({ development, checkout }: { development: boolean; checkout: CheckoutMode }): CspDirectives {
  const stripe = checkout.gateway === "stripe";
  return {
    defaultSrc: ["'self'"],
    scriptSrc: [...(development ? ["'self'", "'unsafe-inline'"] : ["'self'", NONCE]), ...(stripe ? ["https://js.stripe.com"] : [])],
    frameSrc: stripe ? ["https://js.stripe.com", "https://hooks.stripe.com"] : ["'none'"],
    styleSrc: development ? ["'self'", "'unsafe-inline'"] : ["'self'", NONCE],
    imgSrc: ["'self'", "data:"],
    connectSrc: [...(development ? ["'self'", "ws:"] : ["'self'"]), ...(stripe ? ["https://api.stripe.com"] : [])],
    fontSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}
