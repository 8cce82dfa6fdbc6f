import { isValidElement, memo, useMemo, type ReactNode } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";
import { CodeBlock } from "./code-block";
import { plainLine, type PlainLine } from "./plain-line";
import { remarkMentions, type MentionHandles } from "./remark-mentions";
import { remarkSourceMarkers, SOURCE_PROPERTY } from "./remark-source-markers";
import { sourceElementId, type Citations } from "./source-ids";

const noMentions: MentionHandles = { known: new Set(), mine: null };

/** The language of a fenced block, from its <code class="language-ts">. */
function languageOf(children: ReactNode): string | null {
  const code = Array.isArray(children) ? children[0] : children;
  if (!isValidElement<{ className?: string }>(code)) return null;
  return /language-([\w+#-]+)/.exec(code.props.className ?? "")?.[1] ?? null;
}

// Also what a plain line is shown with, without the parser (see PlainMarkdown).
const Paragraph = ({ children }: { children?: ReactNode }) => <p className="whitespace-pre-wrap break-words">{children}</p>;
const BulletList = ({ children }: { children?: ReactNode }) => <ul className="list-disc space-y-0.5 pl-6">{children}</ul>;
// A list may start at another number than 1 ("3. …"): its start is kept.
const OrderedList = ({ children, start }: { children?: ReactNode; start?: number }) => (
  <ol start={start} className="list-decimal space-y-0.5 pl-6">
    {children}
  </ol>
);

// react-markdown renders no raw HTML (it shows as text) and its default URL transform drops
// javascript: and other unsafe links, so message text can never run script.
const components: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="text-link underline">
      {children}
    </a>
  ),
  pre: ({ children }) => <CodeBlock language={languageOf(children)}>{children}</CodeBlock>,
  // Inline code gets a chip; code inside a block (highlighted, class "hljs") keeps the block's look.
  code: ({ className, children }) =>
    className?.includes("hljs") ? (
      <code className={`${className} font-mono`}>{children}</code>
    ) : (
      <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em] dark:bg-slate-800">{children}</code>
    ),
  table: ({ children }) => (
    <div className="my-2 overflow-x-auto">
      <table className="border-collapse text-sm">{children}</table>
    </div>
  ),
  th: ({ children, style }) => (
    <th style={style} className="border border-slate-300 bg-slate-100 px-2 py-1 text-left font-semibold dark:border-slate-700 dark:bg-slate-800">
      {children}
    </th>
  ),
  td: ({ children, style }) => (
    <td style={style} className="border border-slate-300 px-2 py-1 dark:border-slate-700">
      {children}
    </td>
  ),
  ul: BulletList,
  ol: OrderedList,
  p: Paragraph,
  blockquote: ({ children }) => <blockquote className="border-l-4 border-slate-300 pl-3 text-muted dark:border-slate-600">{children}</blockquote>,
  h1: ({ children }) => <p className="text-lg font-bold">{children}</p>,
  h2: ({ children }) => <p className="text-base font-bold">{children}</p>,
  h3: ({ children }) => <p className="font-semibold">{children}</p>,
  hr: () => <hr className="border-slate-200 dark:border-slate-700" />,
};

// react-markdown builds its processor on every render, and rehype-highlight's setup registers
// every common grammar in a new highlight.js instance each time (about 1.5 ms, per message shown
// and per streamed piece): the highlighter is set up once and every processor shares it.
const highlightCode = rehypeHighlight({ detect: false });
const rehypePlugins: NonNullable<Parameters<typeof ReactMarkdown>[0]["rehypePlugins"]> = [() => highlightCode];

/**
 * A message's markdown, styled for both themes; @mentions of participants highlighted; with
 * `citations` (a reply's sources), its [n] markers link to them. Parsing and highlighting run
 * again only when the text, the handles or the citations change (memo), and not at all for a
 * plain line (see `plainLine`).
 */
export const Markdown = memo(function Markdown({ text, handles = noMentions, citations }: { text: string; handles?: MentionHandles; citations?: Citations }) {
  const plain = citations ? null : plainLine(text);
  return plain ? <PlainMarkdown line={plain} /> : <ParsedMarkdown text={text} handles={handles} citations={citations} />;
});

/**
 * A plain line as the parser would render it (the same elements, and the line breaks it puts
 * around a list's item): a streamed reply's line being written skips the parser on every piece.
 */
function PlainMarkdown({ line }: { line: PlainLine }) {
  if (line.kind === "paragraph")
    return (
      <div className="space-y-2">
        <Paragraph>{line.text}</Paragraph>
      </div>
    );
  const item = (
    <>
      {"\n"}
      <li>{line.text}</li>
      {"\n"}
    </>
  );
  return <div className="space-y-2">{line.kind === "bullet" ? <BulletList>{item}</BulletList> : <OrderedList start={line.start === 1 ? undefined : line.start}>{item}</OrderedList>}</div>;
}

/** Markdown through the parser; exported for the tests that hold PlainMarkdown to it. */
export function ParsedMarkdown({ text, handles = noMentions, citations }: { text: string; handles?: MentionHandles; citations?: Citations }) {
  const cited = useMemo<Components>(
    () => (citations ? { ...components, sup: ({ children, ...props }) => <SourceMarker citations={citations} number={Number((props as Record<string, unknown>)[SOURCE_PROPERTY])}>{children}</SourceMarker> } : components),
    [citations],
  );
  return (
    <div className="space-y-2">
      <ReactMarkdown remarkPlugins={citations ? [remarkGfm, [remarkMentions, handles], [remarkSourceMarkers, { count: citations.documents.length }]] : [remarkGfm, [remarkMentions, handles]]} rehypePlugins={rehypePlugins} components={cited}>
        {text}
      </ReactMarkdown>
    </div>
  );
}

/** A reply's [n]: a link to its n-th source under the reply, which it moves focus to (and shows). */
function SourceMarker({ citations, number, children }: { citations: Citations; number: number; children: ReactNode }) {
  const target = sourceElementId(citations.messageId, number);
  return (
    <sup>
      <a
        href={`#${target}`}
        onClick={(event) => {
          // Focus, not navigation: the address keeps its ?at= and the list keeps its place.
          event.preventDefault();
          const source = document.getElementById(target);
          source?.focus();
          source?.scrollIntoView({ block: "nearest" });
        }}
        className="rounded px-0.5 font-semibold text-link hover:underline"
      >
        {children}
        <span className="sr-only"> source: {citations.documents[number - 1]}</span>
      </a>
    </sup>
  );
}
