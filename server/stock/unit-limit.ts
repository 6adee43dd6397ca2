/** A checkout asking for more units of one product than one shopper may buy at once. */
export type UnitLimitRefusal = { ok: false; status: 409; message: string; code: "limit_exceeded" };

export const unitLimitText = (title: string, max: number): string => `You can buy at most ${max} of ${title}.`;

/**
 * The first product of which `lines` ask for more than `max` units in all (lines of the same
 * product count together), refused; null when every product is within the limit. Checked before
 * any unit is held: without it one checkout could hold most of a product's stock for the length
 * of a reservation without paying.
 */
export function overUnitLimit(lines: ReadonlyArray<{ id: number; title: string; quantity: number }>, max: number): UnitLimitRefusal | null {
  const units = new Map<number, number>();
  for (const line of lines) {
    const total = (units.get(line.id) ?? 0) + line.quantity;
    units.set(line.id, total);
    if (total > max) return { ok: false, status: 409, message: unitLimitText(line.title, max), code: "limit_exceeded" };
  }
  return null;
}
