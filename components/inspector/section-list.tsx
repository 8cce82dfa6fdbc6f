import type { AttachmentItem, SnapshotItem, SnapshotSection } from "@/lib/context/types";
import { attachmentAsText, reasonText, sectionStyle, sourceText } from "./section-style";

/** Words for an item: the message it was (history) or where it came from (memory). */
export type DescribeItem = (item: SnapshotItem, section: SnapshotSection["kind"]) => string;

function ItemRow({ item, describe, kind }: { item: SnapshotItem; describe: DescribeItem; kind: SnapshotSection["kind"] }) {
  const text = describe(item, kind);
  const facts = [
    item.seq !== undefined && `seq ${item.seq}`,
    `${item.tokens.toLocaleString()} tokens`,
    ...scoreFacts(item),
    item.source && kind !== "summary" && sourceText(item.source),
  ].filter(Boolean);
  return (
    <li className="py-1">
      {item.included ? <span>{text}</span> : <del className="text-muted">{text}</del>}
      <span className="block text-xs text-muted">
        {facts.join(" · ")}
        {item.reason && <span className={item.included ? "" : "font-semibold text-danger"}>{` · ${item.included ? "" : "excluded: "}${reasonText[item.reason] ?? item.reason}`}</span>}
      </span>
      {item.attachments && item.attachments.length > 0 && (
        <ul className="mt-1 border-l-2 border-slate-200 pl-2 dark:border-slate-700" aria-label="Attachments">
          {item.attachments.map((file) => (
            <AttachmentRow key={file.id} file={file} />
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * An item's score; a knowledge item's ranks too. Hybrid retrieval sets both ranks (null: that
 * ranking did not find the chunk) and its score is the fused one, a few hundredths at most; vector
 * retrieval sets the vector rank alone, with the cosine similarity.
 */
function scoreFacts({ score, vectorRank, textRank }: SnapshotItem): string[] {
  if (score === undefined) return [];
  const rank = (ranking: string, value: number | null) => `${ranking} rank ${value ?? "none"}`;
  if (textRank !== undefined) return [rank("vector", vectorRank ?? null), rank("text", textRank), `fused score ${score.toFixed(4)}`];
  return [...(vectorRank !== undefined ? [rank("vector", vectorRank)] : []), `score ${score.toFixed(2)}`];
}

/** A message's file: how it was sent, what it added, and why it was not read when it was not. */
function AttachmentRow({ file }: { file: AttachmentItem }) {
  const name = `📎 ${file.name}`;
  return (
    <li className="text-xs">
      {file.included ? <span>{name}</span> : <del className="text-muted">{name}</del>}
      <span className="text-muted">{` · ${file.mediaType}${file.included ? ` · ${attachmentAsText[file.as]}` : ""} · ${file.tokens.toLocaleString()} tokens`}</span>
      {file.reason && <span className={file.included ? "text-muted" : "font-semibold text-danger"}>{` · ${file.included ? "" : "not read: "}${reasonText[file.reason] ?? file.reason}`}</span>}
    </li>
  );
}

/** What is worth seeing at once: history that lost messages, a current message with files. */
function opensAtFirst(section: SnapshotSection): boolean {
  if (section.kind === "history") return section.items.some((item) => !item.included);
  return section.kind === "current" && section.items.some((item) => (item.attachments?.length ?? 0) > 0);
}

/** Every section in the fixed order, each expandable to its items (excluded ones struck through with why). */
export function SectionList({ sections, describe }: { sections: SnapshotSection[]; describe: DescribeItem }) {
  return (
    <div className="divide-y divide-slate-200 dark:divide-slate-800">
      {sections.map((section) => {
        const kept = section.items.filter((item) => item.included).length;
        return (
          <details key={section.kind} className="py-1" open={opensAtFirst(section)}>
            <summary className="flex cursor-pointer items-center gap-2 py-1 text-sm font-medium">
              <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 shrink-0 rounded-sm ${sectionStyle[section.kind].swatch}`} />
              <span className="flex-1">{sectionStyle[section.kind].label}</span>
              <span className="text-xs font-normal text-muted">
                {section.items.length === 0 ? "empty" : `${kept} of ${section.items.length} included`} · {section.tokens.toLocaleString()} tokens
              </span>
            </summary>
            {section.items.length > 0 && (
              <ul tabIndex={0} className="max-h-72 overflow-y-auto pb-2 pl-5 text-sm" aria-label={`${sectionStyle[section.kind].label} items`}>
                {section.items.map((item) => (
                  <ItemRow key={item.id} item={item} describe={describe} kind={section.kind} />
                ))}
              </ul>
            )}
          </details>
        );
      })}
    </div>
  );
}
