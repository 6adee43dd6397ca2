import { type KeyboardEvent, type Ref, type RefObject, useEffect, useImperativeHandle, useRef, useState } from "react";
import { useNavigate } from "react-router";
import type { SuggestionsBody } from "../../server/search/routes.ts";

/** What the search box's ARIA attributes say about the list. */
export interface ComboboxState {
  expanded: boolean;
  activeId?: string;
}

/** How the search box hands its events to the list (the box is rendered before this module loads). */
export interface SuggestionsHandle {
  typed(text: string): void;
  keyDown(event: KeyboardEvent<HTMLInputElement>): void;
  close(): void;
}

type Suggestion = SuggestionsBody["results"][number];

interface View {
  items: Suggestion[];
  open: boolean;
  /** Index of the highlighted option, -1 for none. */
  active: number;
}

const CLOSED: View = { items: [], open: false, active: -1 };
const LIMIT = 6;
// Long enough to skip the requests for letters typed in one burst, short enough to feel immediate.
const DEBOUNCE_MS = 150;

async function fetchSuggestions(query: string, signal: AbortSignal): Promise<Suggestion[]> {
  const response = await fetch(`/api/search?${new URLSearchParams({ q: query, limit: String(LIMIT) })}`, {
    headers: { accept: "application/json" },
    signal,
  });
  if (!response.ok) throw new Error(`/api/search answered ${response.status}`);
  return ((await response.json()) as SuggestionsBody).results;
}

/** What a key does to the list: the next view, the suggestion to open, or null when the key is the box's own. */
function keyOutcome(view: View, key: string): { view: View } | { choose: Suggestion } | null {
  const count = view.items.length;
  switch (key) {
    case "ArrowDown":
    case "ArrowUp": {
      if (count === 0) return null;
      const step = key === "ArrowDown" ? 1 : -1;
      // From a closed list, Down starts at the first option and Up at the last; both wrap around.
      const from = view.open ? view.active : step > 0 ? -1 : count;
      return { view: { ...view, open: true, active: (from + step + count) % count } };
    }
    case "Enter": {
      const item = view.open ? view.items[view.active] : undefined;
      // Without a highlighted option Enter submits the form: the results page.
      return item ? { choose: item } : null;
    }
    case "Escape":
      // Closes the list and keeps the text; a second Escape clears the box as usual.
      return view.open ? { view: { ...view, open: false, active: -1 } } : null;
    default:
      return null;
  }
}

/** The options and the count a screen reader hears. */
function SuggestionList({ id, view, optionId, choose }: { id: string; view: View; optionId(index: number): string; choose(item: Suggestion): void }) {
  const expanded = view.open && view.items.length > 0;
  return (
    <>
      <ul id={id} role="listbox" aria-label="Suggestions" className="suggestions" hidden={!expanded}>
        {view.items.map((item, index) => (
          <li
            key={item.id}
            id={optionId(index)}
            role="option"
            aria-selected={index === view.active}
            className="suggestions__option"
            // Keeps focus in the box, so its blur does not close the list before the click lands.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(item)}
          >
            {item.title}
          </li>
        ))}
      </ul>
      <span className="visually-hidden" role="status">
        {expanded ? `${view.items.length} ${view.items.length === 1 ? "suggestion" : "suggestions"}` : ""}
      </span>
    </>
  );
}

interface SuggestionsProps {
  ref: Ref<SuggestionsHandle>;
  id: string;
  input: RefObject<HTMLInputElement | null>;
  onCombobox(state: ComboboxState): void;
}

/**
 * The suggestions list of the search box, after the ARIA combobox pattern: typing shows up to six
 * product titles; Down and Up move through them, Enter opens the highlighted product, Escape
 * closes the list. Focus stays in the box throughout.
 */
export default function Suggestions({ ref, id, input, onCombobox }: SuggestionsProps) {
  const navigate = useNavigate();
  const [view, setView] = useState<View>(CLOSED);
  const pending = useRef<{ timer?: ReturnType<typeof setTimeout>; request?: AbortController }>({});
  const optionId = (index: number) => `${id}-${index}`;

  // Every change goes through here, so the box's ARIA state always matches the list.
  const show = (next: View) => {
    setView(next);
    const expanded = next.open && next.items.length > 0;
    onCombobox({ expanded, activeId: expanded && next.active >= 0 ? optionId(next.active) : undefined });
  };

  const cancel = () => {
    clearTimeout(pending.current.timer);
    pending.current.request?.abort();
  };

  /** Asks for suggestions once typing pauses; only the answer to the latest text is shown. */
  const schedule = (query: string) => {
    cancel();
    pending.current.timer = setTimeout(() => {
      const request = new AbortController();
      pending.current.request = request;
      fetchSuggestions(query, request.signal).then(
        (items) => show({ items, open: true, active: -1 }),
        // Superseded by newer typing, or offline: the form still submits, so no message is needed.
        () => {},
      );
    }, DEBOUNCE_MS);
  };

  const typed = (text: string) => {
    const query = text.trim();
    if (query) return schedule(query);
    cancel();
    show(CLOSED);
  };

  const choose = (item: Suggestion) => {
    cancel();
    show(CLOSED);
    void navigate(`/products/${item.id}`);
  };

  useImperativeHandle(ref, () => ({
    typed,
    close() {
      cancel();
      show({ ...view, open: false, active: -1 });
    },
    keyDown(event) {
      const outcome = keyOutcome(view, event.key);
      if (!outcome) return;
      event.preventDefault();
      if ("choose" in outcome) choose(outcome.choose);
      else show(outcome.view);
    },
  }));

  useEffect(() => {
    // Letters typed while this module was loading: suggest for them now.
    const box = input.current;
    const query = box?.value.trim();
    if (query && document.activeElement === box && box?.value !== box?.defaultValue) schedule(query);
    return cancel;
    // Once, on mount: later typing arrives through the handle.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return <SuggestionList id={id} view={view} optionId={optionId} choose={choose} />;
}
