import type { SessionUser } from "../../server/auth/auth.ts";
import type { BasketLine } from "../../server/orders/order.ts";

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
  | { type: "ADD_TO_BASKET"; item: Omit<BasketItem, "amount"> }
  | { type: "REMOVE_FROM_BASKET"; id: number }
  | { type: "EMPTY_BASKET" }
  | { type: "SET_USER"; user: User | null };

export const initialState: StoreState = { basket: [], user: null };

/** Spec section 4: the basket and user transitions, as a pure function. */
export function storeReducer(state: StoreState, action: StoreAction): StoreState {
  switch (action.type) {
    case "ADD_TO_BASKET": {
      const { id, title, image, rating, priceCents, description } = action.item;
      const existing = state.basket.some((line) => line.id === id);
      return {
        ...state,
        basket: existing
          ? state.basket.map((line) => (line.id === id ? { ...line, amount: line.amount + 1 } : line))
          : [...state.basket, { id, title, image, rating, priceCents, description, amount: 1 }],
      };
    }
    case "REMOVE_FROM_BASKET":
      return {
        ...state,
        basket: state.basket.flatMap((line) =>
          line.id !== action.id ? [line] : line.amount > 1 ? [{ ...line, amount: line.amount - 1 }] : [],
        ),
      };
    case "EMPTY_BASKET":
      return { ...state, basket: [] };
    case "SET_USER":
      return { ...state, user: action.user };
  }
}

/** The header's cart count: the sum of the amounts, not the number of lines. */
export const basketCount = (basket: readonly BasketItem[]): number =>
  basket.reduce((sum, line) => sum + line.amount, 0);

/** The subtotal in integer cents: the sum of price x amount, exact to the cent. */
export const basketSubtotalCents = (basket: readonly BasketItem[]): number =>
  basket.reduce((sum, line) => sum + line.priceCents * line.amount, 0);
