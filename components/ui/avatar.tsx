import { readableTextOn } from "./readable-text";

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? `${parts[0]![0]}${parts.at(-1)![0]}` : (parts[0]?.slice(0, 2) ?? "?");
  return letters.toUpperCase();
}

/** Users get a colour derived from their id so the same person always looks the same. */
export function colourFor(id: string): string {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return `hsl(${Math.abs(hash) % 360} 55% 45%)`;
}

const dimensions = { xs: "h-5 w-5 text-[9px]", sm: "h-7 w-7 text-[11px]", md: "h-9 w-9 text-xs" } as const;

export function Avatar({ name, colour, size = "md" }: { name: string; colour: string; size?: keyof typeof dimensions }) {
  const dimension = dimensions[size];
  return (
    <span
      aria-hidden="true"
      className={`${dimension} inline-flex shrink-0 items-center justify-center rounded-full font-semibold`}
      style={{ backgroundColor: colour, color: readableTextOn(colour) }}
    >
      {initials(name)}
    </span>
  );
}
