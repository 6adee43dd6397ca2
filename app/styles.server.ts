/**
 * Every stylesheet of the app as one string, which the server renderer puts in each page's head
 * (app/root.tsx): the first paint waits for no stylesheet request, and page changes in the browser
 * need none, since all of it is about 4 KB compressed. No module imports a stylesheet, so none is
 * also sent as a file. The glob picks up a new stylesheet next to its component without a list to
 * keep; base styles come first, then the rest in path order (their selectors do not overlap).
 * `.server` keeps this module, and so the CSS text, out of the browser's bundle.
 */
const sheets = import.meta.glob<string>("./**/*.css", { query: "?inline", import: "default", eager: true });

const BASE = "./app.css";

export const stylesheet = [BASE, ...Object.keys(sheets).filter((file) => file !== BASE).sort()].map((file) => sheets[file]).join("");
