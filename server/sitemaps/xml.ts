// The sitemaps protocol (https://www.sitemaps.org/protocol.html): a sitemap is a <urlset> of at
// most 50,000 addresses; a sitemap index lists the sitemaps. Every address is absolute and
// entity-escaped; a lastmod is a W3C datetime.

/** The most addresses one sitemap may list (and the most sitemaps one index may). */
export const MAX_URLS = 50_000;

const NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** An address a sitemap lists (or a sitemap an index lists), and when it last changed (epoch ms), when known. */
export interface SitemapEntry {
  loc: string;
  lastmod?: number;
}

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Text escaped for XML, as the protocol asks of every address. */
export const escapeXml = (text: string): string => text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);

/** A W3C datetime to the second, in UTC: 2024-05-01T12:30:00Z. */
export const w3cDate = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/** `items` in runs of at most `max`, in order (none for none). */
export function inRuns<T>(items: readonly T[], max = MAX_URLS): T[][] {
  const runs: T[][] = [];
  for (let start = 0; start < items.length; start += max) runs.push(items.slice(start, start + max));
  return runs;
}

/** The newest of the entries' lastmods, if any has one. */
export function newest(entries: readonly SitemapEntry[]): number | undefined {
  let latest: number | undefined;
  for (const { lastmod } of entries) if (lastmod !== undefined && (latest === undefined || lastmod > latest)) latest = lastmod;
  return latest;
}

function listed(tag: "url" | "sitemap", entries: readonly SitemapEntry[]): string[] {
  return entries.map(({ loc, lastmod }) => `<${tag}><loc>${escapeXml(loc)}</loc>${Number.isFinite(lastmod) ? `<lastmod>${w3cDate(lastmod!)}</lastmod>` : ""}</${tag}>\n`);
}

/** A sitemap: the <urlset> of `urls` (at most MAX_URLS). */
export function urlset(urls: readonly SitemapEntry[]): string {
  if (urls.length > MAX_URLS) throw new Error(`a sitemap lists at most ${MAX_URLS} addresses, not ${urls.length}`);
  return [DECLARATION, `<urlset xmlns="${NAMESPACE}">\n`, ...listed("url", urls), "</urlset>\n"].join("");
}

/** A sitemap index: the <sitemapindex> of `sitemaps` (at most MAX_URLS). */
export function sitemapIndex(sitemaps: readonly SitemapEntry[]): string {
  if (sitemaps.length > MAX_URLS) throw new Error(`a sitemap index lists at most ${MAX_URLS} sitemaps, not ${sitemaps.length}`);
  return [DECLARATION, `<sitemapindex xmlns="${NAMESPACE}">\n`, ...listed("sitemap", sitemaps), "</sitemapindex>\n"].join("");
}
