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

const dimensions = { xs: "h-5 w-5 text-[9px]", sm: "h-7 w-7 text-[11px]", md: "h-9 w-9 text-xs", lg: "h-20 w-20 text-2xl" } as const;

/**
 * A person's or an agent's circle: their picture when they have one, else their initials on
 * their colour. Decorative: the name is always written beside it.
 */
export function Avatar({ name, colour, image, size = "md" }: { name: string; colour: string; image?: string | null; size?: keyof typeof dimensions }) {
  const dimension = dimensions[size];
  return (
    <span
      aria-hidden="true"
      className={`${dimension} inline-flex shrink-0 items-center justify-center overflow-hidden rounded-full font-semibold`}
      style={{ backgroundColor: colour, color: readableTextOn(colour) }}
    >
      {/* eslint-disable-next-line @next/next/no-img-element -- a small square served by our own route, cached by its version */}
      {image ? <img src={image} alt="" className="h-full w-full object-cover" /> : initials(name)}
    </span>
  );
}

/** A person as the server describes them: their own colour (or their id's) and picture. */
export function UserAvatar({ person, size }: { person: { id: string; name: string; color: string | null; avatarUrl: string | null }; size?: keyof typeof dimensions }) {
  return <Avatar name={person.name} colour={person.color ?? colourFor(person.id)} image={person.avatarUrl} size={size} />;
}
