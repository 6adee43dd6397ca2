import { lazy, Suspense, useRef, useState } from "react";
import { Form, useLocation } from "react-router";
import { SearchIcon } from "../components/Icons.tsx";
import type { ComboboxState, SuggestionsHandle } from "./Suggestions.tsx";

// Fetched on the first focus of the box, so the first page load carries none of the suggestions code.
const Suggestions = lazy(() => import("./Suggestions.tsx"));

const LISTBOX_ID = "search-suggestions";

/**
 * The header's search: a plain GET form to /search, so it works before hydration and without
 * JavaScript; with JavaScript the box becomes a combobox offering product titles while typing.
 */
export function SearchForm() {
  const { pathname, search } = useLocation();
  // On the results page the box shows what was searched; elsewhere it starts empty.
  const query = pathname === "/search" ? (new URLSearchParams(search).get("q") ?? "") : "";
  const input = useRef<HTMLInputElement>(null);
  const suggestions = useRef<SuggestionsHandle>(null);
  const [wanted, setWanted] = useState(false);
  const [combobox, setCombobox] = useState<ComboboxState>({ expanded: false });
  return (
    <Form action="/search" className="header__search" role="search" onSubmit={() => suggestions.current?.close()}>
      {/* No name: the scope holds only "All", so it adds nothing to the query. */}
      <select className="header__search-scope" aria-label="Search in" defaultValue="All">
        <option>All</option>
      </select>
      <input
        key={query}
        ref={input}
        className="header__search-input"
        type="search"
        name="q"
        defaultValue={query}
        role="combobox"
        aria-label="Search Storefront"
        aria-autocomplete="list"
        aria-expanded={combobox.expanded}
        aria-controls={combobox.expanded ? LISTBOX_ID : undefined}
        aria-activedescendant={combobox.activeId}
        autoComplete="off"
        placeholder="Search Storefront"
        onFocus={() => setWanted(true)}
        onChange={(event) => suggestions.current?.typed(event.currentTarget.value)}
        onKeyDown={(event) => suggestions.current?.keyDown(event)}
        onBlur={() => suggestions.current?.close()}
      />
      <button className="header__search-button" type="submit" aria-label="Search">
        <SearchIcon />
      </button>
      {wanted && (
        <Suspense fallback={null}>
          <Suggestions ref={suggestions} id={LISTBOX_ID} input={input} onCombobox={setCombobox} />
        </Suspense>
      )}
    </Form>
  );
}
