import { describe, expect, it } from "vitest";
import { gridMove } from "./emoji-grid-keys";

// 10 cells, 4 wide:  0 1 2 3 / 4 5 6 7 / 8 9
const move = (key: string, index: number, ctrlKey = false) => gridMove(key, index, 10, 4, ctrlKey);

describe("gridMove", () => {
  it("moves by one cell, across row ends, and stops at the grid's ends", () => {
    expect(move("ArrowRight", 0)).toBe(1);
    expect(move("ArrowRight", 3)).toBe(4);
    expect(move("ArrowRight", 9)).toBe(9);
    expect(move("ArrowLeft", 4)).toBe(3);
    expect(move("ArrowLeft", 0)).toBe(0);
  });

  it("moves by rows, to the last cell below a short last row, and out of the top", () => {
    expect(move("ArrowDown", 1)).toBe(5);
    expect(move("ArrowDown", 5)).toBe(9);
    expect(move("ArrowDown", 6)).toBe(9);
    expect(move("ArrowDown", 9)).toBe(9);
    expect(move("ArrowUp", 9)).toBe(5);
    expect(move("ArrowUp", 2)).toBe("above");
  });

  it("goes to the row's ends, or the grid's with Ctrl", () => {
    expect(move("Home", 6)).toBe(4);
    expect(move("End", 5)).toBe(7);
    expect(move("End", 8)).toBe(9);
    expect(move("Home", 6, true)).toBe(0);
    expect(move("End", 1, true)).toBe(9);
  });

  it("leaves other keys, and an empty grid, alone", () => {
    expect(move("Tab", 3)).toBeNull();
    expect(move("Enter", 3)).toBeNull();
    expect(gridMove("ArrowDown", 0, 0, 4)).toBeNull();
  });
});
