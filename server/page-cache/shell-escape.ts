/**
 * How a page writes a string where a personal shell has a hole, so that a filled shell is the
 * page a full render for that user gives, byte for byte. Unit-tested against React's and React
 * Router's own output (shell-escape.test.ts).
 */

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

/** As React's server renderer writes a string in text or an attribute value (escapeTextForBrowser). */
export const htmlText = (value: string): string => value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);

const SCRIPT_ESCAPES: Record<string, string> = { "&": "\\u0026", ">": "\\u003e", "<": "\\u003c", "\u2028": "\\u2028", "\u2029": "\\u2029" };

/** The inside of JSON.stringify's string literal for `value` (char by char, so pieces join). */
const jsonInner = (value: string): string => JSON.stringify(value).slice(1, -1);

/**
 * As a string of the loaders' data appears in React Router's hydration script: turbo-stream
 * writes it as a JSON string, the stream's text is put in the script as a JSON string again
 * (`streamController.enqueue("...")`), and that is escaped for a <script> element (escapeHtml in
 * react-router's markup.ts, so `</script>` cannot end it). Each step escapes character by
 * character, so a value's escaped text can stand in for a placeholder's inside the whole.
 */
export const hydrationString = (value: string): string => jsonInner(jsonInner(value)).replace(/[&><\u2028\u2029]/g, (char) => SCRIPT_ESCAPES[char]!);
