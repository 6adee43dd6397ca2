import { createContext, useContext } from "react";

/** The CSP nonce of the response being rendered; undefined in the browser, where it is not needed. */
export const NonceContext = createContext<string | undefined>(undefined);

export const useNonce = () => useContext(NonceContext);
