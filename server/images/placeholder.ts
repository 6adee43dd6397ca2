/**
 * What a product image that cannot be fetched shows instead: a light square with a picture outline,
 * the same square the card reserves for every image, so nothing moves when it takes the image's place.
 */
export const PLACEHOLDER_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400">\
<rect width="400" height="400" fill="#f3f4f4"/>\
<g fill="none" stroke="#b9bfbf" stroke-width="8" stroke-linejoin="round">\
<rect x="130" y="140" width="140" height="120" rx="10"/>\
<path d="M138 242l42-46 30 32 20-20 32 34"/>\
</g>\
<circle cx="232" cy="176" r="12" fill="#b9bfbf"/>\
</svg>`;
