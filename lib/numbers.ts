/**
 * A whole, non-negative number's digits with a comma between each group of three: 1234567 ->
 * "1,234,567", as `Intl.NumberFormat("en-US")` writes it.
 */
export function groupThousands(whole: number): string {
  const digits = String(whole);
  let grouped = "";
  for (let end = digits.length; end > 0; end -= 3) grouped = (end > 3 ? "," : "") + digits.slice(Math.max(0, end - 3), end) + grouped;
  return grouped;
}
