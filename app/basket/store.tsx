import { createContext, type Dispatch, type ReactNode, useContext, useReducer } from "react";
import { initialState, type StoreAction, type StoreState, storeReducer } from "./reducer.ts";

const StoreContext = createContext<[StoreState, Dispatch<StoreAction>] | null>(null);

/**
 * Holds the basket and the user for the whole app. It lives in the root layout, so it survives
 * client-side navigation; it is not persisted, so every full page load starts with an empty basket.
 */
export function StoreProvider({ children }: { children: ReactNode }) {
  const store = useReducer(storeReducer, initialState);
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

export function useStore(): [StoreState, Dispatch<StoreAction>] {
  const store = useContext(StoreContext);
  if (!store) throw new Error("useStore must be used inside <StoreProvider>");
  return store;
}
