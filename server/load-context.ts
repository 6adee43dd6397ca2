import type { Catalogue } from "./catalogue/catalogue.ts";
import type { Logger } from "./log.ts";

/**
 * What the server hands React Router's loaders and actions, in-process. A type alias rather than
 * an interface, so it fits React Router's index-signature AppLoadContext.
 */
export type StorefrontContext = {
  catalogue: Catalogue;
  log: Logger;
  /** The shop's public origin, for absolute links (e.g. in structured data). */
  publicUrl: string;
  /** This response's Content-Security-Policy nonce, for the inline hydration scripts. */
  cspNonce: string;
};

export type SsrHandler = (request: Request, context: StorefrontContext) => Promise<Response>;
