import { createContext, type Dispatch, type ReactNode, useContext, useReducer } from "react";
import { initialState, type StoreAction, type StoreState, storeReducer, type User } from "./reducer.ts";

const StoreContext = createContext<[StoreState, Dispatch<StoreAction>] | null>(null);

const sameUser = (a: User | null, b: User | null) => a?.uid === b?.uid && a?.email === b?.email;

/**
 * Holds the basket and the user for the whole app. It lives in the root layout, so it survives
 * client-side navigation (signing in and out included); it is not persisted, so every full page
 * load starts with an empty basket. The user is server truth: it starts as the root loader's
 * and follows it (set on sign-in, null on sign-out), so the server-rendered header is right.
 */
export function StoreProvider({ user, children }: { user: User | null; children: ReactNode }) {
  const [state, dispatch] = useReducer(storeReducer, { ...initialState, user });
  // Adjusting state while rendering (not in an effect) means no frame ever shows the old user.
  if (!sameUser(state.user, user)) dispatch({ type: "SET_USER", user });
  return <StoreContext.Provider value={[state, dispatch]}>{children}</StoreContext.Provider>;
}

export function useStore(): [StoreState, Dispatch<StoreAction>] {
  const store = useContext(StoreContext);
  if (!store) throw new Error("useStore must be used inside <StoreProvider>");
  return store;
}
