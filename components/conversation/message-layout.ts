/** A message row: the author's avatar (2.25 rem, `md`) and a 0.75 rem gap, then the text column. */
export const messageRow = "flex gap-3";

/**
 * For a wide block inside a message (a panel's answers side by side): at phone width it also
 * takes the avatar column, 2.25 + 0.75 = 3 rem, so it keeps to the row's width.
 */
export const phoneFullWidth = "-ml-12 sm:ml-0";
