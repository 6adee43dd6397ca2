import { fixed } from "./fixed-element.ts";

// Small inline icons; decorative, so hidden from assistive technology. Each is made once on the server (fixed-element.ts).
const common = { "aria-hidden": true, focusable: false } as const;

export const SearchIcon = fixed(() => (
  <svg {...common} width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round">
    <circle cx="10.5" cy="10.5" r="6.5" />
    <path d="m15.5 15.5 5 5" />
  </svg>
));

export const CartIcon = fixed(() => (
  <svg {...common} width="38" height="30" viewBox="0 0 38 30" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinejoin="round" strokeLinecap="round">
    <path d="M2 3h5l4.5 17h18L34 8H9" />
    <circle cx="14" cy="26" r="2.2" fill="currentColor" />
    <circle cx="27" cy="26" r="2.2" fill="currentColor" />
  </svg>
));

export const MenuIcon = fixed(() => (
  <svg {...common} width="20" height="20" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
    <path d="M3 5h14M3 10h14M3 15h14" />
  </svg>
));

export const LocationIcon = fixed(() => (
  <svg {...common} width="16" height="20" viewBox="0 0 16 20" fill="none" stroke="currentColor" strokeWidth="1.8">
    <path d="M8 19s6-6.2 6-11A6 6 0 0 0 2 8c0 4.8 6 11 6 11Z" />
    <circle cx="8" cy="8" r="2.2" />
  </svg>
));

export const CaretIcon = fixed(() => (
  <svg {...common} width="8" height="6" viewBox="0 0 8 6" fill="currentColor">
    <path d="M0 0h8L4 5z" />
  </svg>
));
