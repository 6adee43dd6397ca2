const SHOP = "Storefront";

/** The document title and description every page sets. */
export function pageMeta(title: string, description: string) {
  return [
    { title: title === SHOP ? SHOP : `${title} | ${SHOP}` },
    { name: "description", content: description },
  ];
}
