type Rgb = [number, number, number];

// Pure black: with any lighter "dark" the worst mid-tone background falls below 4.5:1 either way.
const DARK_TEXT = "#000000";
const LIGHT_TEXT = "#ffffff";

/** `#rrggbb` or `hsl(h s% l%)`, the two forms avatar colours come in. */
export function parseColour(colour: string): Rgb | null {
  const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(colour.trim());
  if (hex) return [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16), parseInt(hex[3]!, 16)];
  const hsl = /^hsl\(\s*([\d.]+)\s+([\d.]+)%\s+([\d.]+)%\s*\)$/i.exec(colour.trim());
  if (!hsl) return null;
  const [h, s, l] = [Number(hsl[1]) / 360, Number(hsl[2]) / 100, Number(hsl[3]) / 100];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    const v = u < 1 / 6 ? p + (q - p) * 6 * u : u < 1 / 2 ? q : u < 2 / 3 ? p + (q - p) * (2 / 3 - u) * 6 : p;
    return Math.round(v * 255);
  };
  return [channel(h + 1 / 3), channel(h), channel(h - 1 / 3)];
}

function luminance([r, g, b]: Rgb): number {
  const linear = (c: number) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrastRatio(a: Rgb, b: Rgb): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/**
 * White or near-black, whichever reads better on `background`: initials on any agent or person
 * colour stay legible (WCAG AA needs 4.5:1 for small text).
 */
export function readableTextOn(background: string): string {
  const rgb = parseColour(background);
  if (!rgb) return LIGHT_TEXT;
  return contrastRatio(rgb, [255, 255, 255]) >= contrastRatio(rgb, parseColour(DARK_TEXT)!) ? LIGHT_TEXT : DARK_TEXT;
}
