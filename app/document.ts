import { createContext, useContext } from "react";

/**
 * What the server renderer gives the document shell for the response it renders: the
 * Content-Security-Policy nonce of the inline scripts and styles, and the stylesheet to inline.
 * Null in the browser, which needs neither: the scripts have run and the styles stay in the page.
 */
export interface DocumentAssets {
  nonce: string | undefined;
  /** What the inline <style> holds: the server renders a slot, filled with the stylesheet's bytes (app/document-bytes.server.ts). */
  stylesheet: string;
}

export const DocumentContext = createContext<DocumentAssets | null>(null);

export const useDocumentAssets = () => useContext(DocumentContext);
