import type { StorefrontContext } from "../server/load-context.ts";

declare module "react-router" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends StorefrontContext {}
}
