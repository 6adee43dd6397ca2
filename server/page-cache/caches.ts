import type { BuildRoutes } from "../routing/build-routes.ts";
import type { Config } from "../config.ts";
import type { Services } from "../services.ts";
import { AffectedPages } from "./affected-pages.ts";
import { PageCache } from "./anonymous-pages.ts";
import { PersonalShells } from "./personal-shells.ts";
import { type ShellPages, shellPages } from "./shell-routes.ts";

const PAGE_CACHE_BYTES = 32 * 1024 * 1024;
const SHELL_BYTES = 16 * 1024 * 1024;

/** The pages kept in memory: anonymous pages, and the personal shells of signed-in visitors' pages. */
export interface PageCaches {
  anonymous: PageCache;
  personal: PersonalShells;
  /** Which addresses a signed-in visitor gets from a shell, from the routes' declarations (shell-routes.ts). */
  shells: Promise<ShellPages>;
  /** As `shells`, for a caller that cannot wait: no address until the route table is read (at start). */
  fromShell: ShellPages;
}

/**
 * Anonymous pages are the same for everyone (the basket lives in the browser): rendered once per
 * address, until the catalogue changes; the pipeline's path in front of Hono (in-front.ts) also
 * answers their hits. Signed-in visitors get the pages whose routes declare `shell: true` from
 * personal shells (personal-shells.ts): the page rendered once per address and kind of user for a
 * placeholder user, filled with theirs per response. Both drop exactly the pages a catalogue
 * change touches. Null when pages are not cached (development, where the route table changes, or
 * PAGE_CACHE_ENTRIES=0). `routes` is the build's route table; `shells` is given by tests that look
 * at what is kept.
 */
export function pageCaches(
  config: Pick<Config, "NODE_ENV" | "PAGE_CACHE_ENTRIES">,
  services: Services,
  routes: () => Promise<BuildRoutes>,
  shells?: PersonalShells,
): PageCaches | null {
  if (config.PAGE_CACHE_ENTRIES <= 0 || config.NODE_ENV === "development") return null;
  const anonymous = new PageCache({ maxEntries: config.PAGE_CACHE_ENTRIES, maxBytes: PAGE_CACHE_BYTES, telemetry: services.metrics });
  const personal = shells ?? new PersonalShells({ maxEntries: config.PAGE_CACHE_ENTRIES, maxBytes: SHELL_BYTES });
  let known: ShellPages = () => false;
  // A route table that cannot be read gives no shells: every signed-in page renders in full.
  const declared = routes().then(shellPages, (): ShellPages => () => false);
  void declared.then((read) => (known = read));
  // Only the pages that show a changed product go (a sale must not empty the cache).
  const affected = new AffectedPages();
  void services.catalogue.listed().then(
    (products) => affected.remember(products),
    () => {},
  );
  services.catalogue.onChange((change) => {
    void services.catalogue.listed().then(
      (products) => {
        const pages = affected.of(change, products);
        anonymous.drop(pages);
        personal.drop(pages);
      },
      () => {
        anonymous.clear();
        personal.clear();
      },
    );
  });
  return { anonymous, personal, shells: declared, fromShell: (pathname) => known(pathname) };
}
