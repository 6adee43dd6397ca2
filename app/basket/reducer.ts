import type { SessionUser } from "../../server/auth/auth.ts";
import { type BasketLine, lineFrom } from "../../lib/basket.ts";

/** A basket line: the product as it was added (price in integer cents) and how many. */
export type BasketItem = BasketLine;

/** The signed-in shopper, as the identity provider reports them (spec section 3). */
export type User = SessionUser;

/** The global application state of spec section 3. */
export interface StoreState {
  basket: BasketItem[];
  user: User | null;
}

export type StoreAction =
  | { type: "ADD_TO_BASKET"; item: Omit<BasketItem, "quantity"> }
  | { type: "REMOVE_FROM_BASKET"; id: number }
  | { type: "EMPTY_BASKET" }
  | { type: "SET_USER"; user: User | null };

export const initialState: StoreState = { basket: [], user: null };

/** Spec section 4: the basket and user transitions, as a pure function. */
export function storeReducer(state: StoreState, action: StoreAction): StoreState {
  switch (action.type) {
    case "ADD_TO_BASKET": {
      const { id } = action.item;
      const existing = state.basket.some((line) => line.id === id);
      return {
        ...state,
        basket: existing
          ? state.basket.map((line) => (line.id === id ? { ...line, quantity: line.quantity + 1 } : line))
          : [...state.basket, lineFrom(action.item, 1)],
      };
    }
    case "REMOVE_FROM_BASKET":
      return {
        ...state,
        basket: state.basket.flatMap((line) =>
          line.id !== action.id ? [line] : line.quantity > 1 ? [{ ...line, quantity: line.quantity - 1 }] : [],
        ),
      };
    case "EMPTY_BASKET":
      return { ...state, basket: [] };
    case "SET_USER":
      return { ...state, user: action.user };
  }
}
