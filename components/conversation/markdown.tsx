import ReactMarkdown, { type Components } from "react-markdown";
import rehypeHighlight from "rehype-highlight";
import remarkGfm from "remark-gfm";

// react-markdown renders no raw HTML (it shows as text) and its default URL transform drops
// javascript: and other unsafe links, so message text can never run script.
const components: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow" className="text-brand-600 underline dark:text-brand-100">
      {children}
    </a>
  ),
  pre: ({ children }) => <pre className="my-2 overflow-x-auto rounded-lg bg-slate-100 p-3 text-sm dark:bg-slate-900">{children}</pre>,
  // Inline code gets a chip; code inside a block (highlighted, class "hljs") keeps the block's look.
  code: ({ className, children }) =>
    className?.includes("hljs") ? (
      <code className={`${className} !bg-transparent !p-0 font-mono`}>{children}</code>
    ) : (
      <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em] dark:bg-slate-800">{children}</code>
    ),
  ul: ({ children }) => <ul className="my-1 list-disc pl-6">{children}</ul>,
  ol: ({ children }) => <ol className="my-1 list-decimal pl-6">{children}</ol>,
  p: ({ children }) => <p className="whitespace-pre-wrap break-words">{children}</p>,
  blockquote: ({ children }) => <blockquote className="border-l-4 border-slate-300 pl-3 text-slate-600 dark:border-slate-700 dark:text-slate-400">{children}</blockquote>,
};

export function Markdown({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[[rehypeHighlight, { detect: false }]]} components={components}>
      {text}
    </ReactMarkdown>
  );
}
