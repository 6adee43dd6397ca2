/**
 * Paths that name a file (/favicon.svg, /assets/x.js): served from disk, never rendered, and never
 * in need of the user. React Router's data requests (/orders.data, /_.data) look like files but are pages.
 */
export const isFilePath = (path: string): boolean => /\.\w+$/.test(path) && !path.endsWith(".data");
