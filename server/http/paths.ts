/**
 * Paths that name a file (/favicon.svg, /assets/x.js): served from disk, never rendered. React
 * Router's data requests (/orders.data, /_.data) look like files but are pages.
 */
export const isFilePath = (path: string) => /\.\w+$/.test(path) && !path.endsWith(".data");
