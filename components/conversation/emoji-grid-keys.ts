/**
 * Where a key moves the focus in a grid of `count` cells laid out `columns` wide, from `index`
 * (the WAI-ARIA layout grid): arrows by one cell or row, Home/End to the row's ends, Ctrl+Home/End
 * to the first and last cells. "above" when ArrowUp leaves the first row (the control above takes
 * the focus); null for a key the grid leaves alone (Tab, Enter, letters).
 */
export function gridMove(key: string, index: number, count: number, columns: number, ctrlKey = false): number | "above" | null {
  if (count === 0) return null;
  const last = count - 1;
  const rowStart = index - (index % columns);
  switch (key) {
    case "ArrowRight":
      return Math.min(index + 1, last);
    case "ArrowLeft":
      return Math.max(index - 1, 0);
    case "ArrowDown":
      // From a row above a short last row, the last cell rather than nothing.
      return index + columns <= last ? index + columns : rowStart + columns <= last ? last : index;
    case "ArrowUp":
      return index - columns >= 0 ? index - columns : "above";
    case "Home":
      return ctrlKey ? 0 : rowStart;
    case "End":
      return ctrlKey ? last : Math.min(rowStart + columns - 1, last);
    default:
      return null;
  }
}
