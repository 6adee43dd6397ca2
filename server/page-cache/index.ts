/**
 * Page caching: rendered pages kept in memory and given again without rendering (anonymous pages
 * whole, signed-in visitors' pages as personal shells filled per response), dropped where the
 * catalogue changes. The rest of the shop uses what this module exports, nothing else of the folder.
 */
export { type PageCaches, pageCaches } from "./caches.ts";
export type { PageCache } from "./anonymous-pages.ts";
export { PersonalShells } from "./personal-shells.ts";
export { pagesInFront } from "./in-front.ts";
export { placeholderUser } from "./shell-holes.ts";
export { type ShellDeclaration, type ShellPages, shellPages } from "./shell-routes.ts";
