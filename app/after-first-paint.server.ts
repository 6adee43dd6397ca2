import { ROUTES_SET } from "./routes-set.ts";

/**
 * React Router's closing module script (<Scripts>) imports the page's route modules statically, so
 * the browser fetches and compiles them the moment it parses the script, at the end of the body:
 * the same few milliseconds in which it lays out and paints the page. Whether the modules were
 * compiled before or after the first frame reached the screen was a coin toss, and when before,
 * Lighthouse counted their download (on its simulated slow phone network) into the largest paint:
 * 0.9 s or 1.5 s for the same page. On a real slow phone the compiling delays the first paint
 * itself.
 *
 * `afterFirstPaint` rewrites that script so the same modules are imported once the first
 * contentful paint is on screen: the page paints first, then hydrates. Its static imports become
 * dynamic ones, and the script's other statements (the manifest, the route modules, the entry's
 * import) run once all have loaded, with the same names bound; the promise of that is left in
 * `window[ROUTES_SET]` for the client entry (app/routes-set.ts). The route modules are imported
 * together, so they download in parallel as before; an import for its effects alone (in
 * development, the hot-reload runtime the route modules expect to find) is loaded first, in order.
 *
 * Where the browser cannot tell when it painted (no Paint Timing), or the tab is hidden (nothing
 * is painted until it is shown), or no paint is reported within a second, the modules are imported
 * at once, as React Router does.
 */

/** Calls `go` once the first contentful paint is on screen (or at once, or after a second, as above). */
const WHEN_PAINTED =
  "function(go){var done=0,run=function(){if(!done){done=1;go()}};try{" +
  'if(document.visibilityState!=="hidden"&&PerformanceObserver.supportedEntryTypes.indexOf("paint")>=0){' +
  'new PerformanceObserver(function(list,observer){if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();run()}})' +
  '.observe({type:"paint",buffered:true});setTimeout(run,1000);return}}catch(e){}run()}';

/** One leading static import: `import "url";` or `import * as name from "url";` (the only forms React Router writes). */
const STATIC_IMPORT = /^[\s;]*import\s*(?:\*\s*as\s+([A-Za-z_$][\w$]*)\s+from\s*)?("(?:[^"\\\n]|\\.)*")[ \t]*;?/;

/**
 * The script with its leading static imports made into dynamic ones run after the first paint, or
 * the script as it is when it has none.
 */
export function afterFirstPaint(script: string): string {
  const sideEffects: string[] = [];
  const named: { name: string; url: string }[] = [];
  let rest = script;
  for (let match = STATIC_IMPORT.exec(rest); match; match = STATIC_IMPORT.exec(rest)) {
    if (match[1]) named.push({ name: match[1], url: match[2]! });
    else sideEffects.push(match[2]!);
    rest = rest.slice(match[0].length);
  }
  if (sideEffects.length + named.length === 0) return script;
  return (
    `;window.${ROUTES_SET}=new Promise(function(routesSet){(${WHEN_PAINTED})(function(){Promise.resolve()` +
    sideEffects.map((url) => `.then(function(){return import(${url})})`).join("") +
    `.then(function(){return Promise.all([${named.map(({ url }) => `import(${url})`).join(",")}])})` +
    `.then(function(modules){` +
    (named.length > 0 ? `var ${named.map(({ name }, index) => `${name}=modules[${index}]`).join(",")};` : "") +
    `${rest}\n}).then(routesSet)})})`
  );
}
