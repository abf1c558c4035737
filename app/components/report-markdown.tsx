// A report's markdown as React elements, drawn from the tree of server/text/markdown (parsed once,
// links and citations decided there): headings, paragraphs, lists, quotes, code, emphasis, links to
// the report's own sources and [n] citations. Only elements are built, never HTML, so anything else
// (raw HTML included) is text.
import type { Nodes, PhrasingContent, RootContent } from 'mdast'
import type { ReactNode } from 'react'
import type { Citation as CitationNode } from '#server/text/markdown/citations.ts'
import { reportTree } from '#server/text/markdown/report-tree.ts'

export function Citation({ n }: { n: number }) {
  return (
    <a
      href={`#source-${n}`}
      aria-label={`Source ${n}`}
      className="mx-px align-super text-xs font-medium text-indigo-700 no-underline hover:underline"
    >
      [{n}]
    </a>
  )
}

/**
 * `headingLevel` is the HTML level of a `##` heading, so the report fits under the page's own
 * headings; `###` is one below it, and a `#` heading is drawn as a `##` one.
 */
export function ReportMarkdown({
  markdown,
  sourceUrls,
  headingLevel = 3,
}: {
  markdown: string
  /** The report's sources in order: [n] cites sourceUrls[n - 1]. */
  sourceUrls: readonly string[]
  headingLevel?: 2 | 3 | 4
}) {
  const tree = reportTree(markdown, sourceUrls)
  return (
    <div className="flex flex-col gap-3 leading-relaxed text-slate-800">{blocks(tree.children, headingLevel, 'b')}</div>
  )
}

function blocks(nodes: RootContent[], headingLevel: number, prefix: string): ReactNode[] {
  const out: ReactNode[] = []
  for (const [index, node] of nodes.entries()) out.push(block(node, headingLevel, `${prefix}${index}`))
  return out
}

function block(node: RootContent, headingLevel: number, key: string): ReactNode {
  switch (node.type) {
    case 'heading': {
      const depth = Math.max(2, node.depth)
      const Tag = `h${Math.min(6, headingLevel + depth - 2)}` as 'h2' | 'h3' | 'h4' | 'h5' | 'h6'
      const size = depth === 2 ? 'text-xl' : 'text-lg'
      return (
        <Tag key={key} className={`mt-2 ${size} font-semibold text-slate-900`}>
          {inline(node.children, key)}
        </Tag>
      )
    }
    case 'paragraph':
      return <p key={key}>{inline(node.children, key)}</p>
    case 'list': {
      const items = node.children.map((item, index) => {
        const itemKey = `${key}-${index}`
        // A tight list's paragraphs are the item's text itself, as markdown renderers draw them.
        const content = item.children.map((child, childIndex) =>
          child.type === 'paragraph' && !node.spread
            ? inline(child.children, `${itemKey}-${childIndex}`)
            : block(child, headingLevel, `${itemKey}-${childIndex}`),
        )
        return <li key={itemKey}>{content}</li>
      })
      return node.ordered ? (
        <ol key={key} start={node.start ?? 1} className="list-decimal space-y-1 pl-6">
          {items}
        </ol>
      ) : (
        <ul key={key} className="list-disc space-y-1 pl-6">
          {items}
        </ul>
      )
    }
    case 'blockquote':
      return (
        <blockquote key={key} className="flex flex-col gap-2 border-l-4 border-slate-200 pl-3 text-slate-600">
          {blocks(node.children, headingLevel, `${key}-`)}
        </blockquote>
      )
    case 'code':
      return (
        <pre key={key} className="overflow-x-auto rounded bg-slate-100 p-3 font-mono text-sm">
          <code>{node.value}</code>
        </pre>
      )
    case 'thematicBreak':
      return <hr key={key} className="border-slate-200" />
    default:
      return <p key={key}>{inline([node as PhrasingContent], key)}</p>
  }
}

function inline(nodes: PhrasingContent[], prefix: string): ReactNode[] {
  const out: ReactNode[] = []
  for (const [index, node] of nodes.entries()) out.push(phrasing(node, `${prefix}.${index}`))
  return out
}

function phrasing(node: PhrasingContent, key: string): ReactNode {
  switch (node.type) {
    case 'text':
      // A soft line break is a space, as a browser shows it.
      return node.value.replace(/[ \t]*\n[ \t]*/g, ' ')
    case 'break':
      return <br key={key} />
    case 'strong':
      return <strong key={key}>{inline(node.children, key)}</strong>
    case 'emphasis':
      return <em key={key}>{inline(node.children, key)}</em>
    case 'delete':
      return <del key={key}>{inline(node.children, key)}</del>
    case 'inlineCode':
      return (
        <code key={key} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em]">
          {node.value}
        </code>
      )
    case 'link':
      return (
        <a
          key={key}
          href={node.url}
          target="_blank"
          rel="noopener noreferrer"
          className="text-indigo-700 underline hover:text-indigo-900"
        >
          {inline(node.children, key)}
        </a>
      )
    case 'citation':
      return citations(node, key)
    default:
      return textOf(node)
  }
}

/** Each number with a source links to it; one without stays text. */
function citations(node: CitationNode, key: string): ReactNode[] {
  const out: ReactNode[] = []
  for (const [index, source] of node.sources.entries()) {
    out.push(source.url ? <Citation key={`${key}-${index}`} n={source.n} /> : `[${source.n}]`)
  }
  return out
}

/** Anything the link policy leaves no other way to draw (html, for one) is its text. */
function textOf(node: Nodes): string {
  return 'value' in node ? node.value : ''
}
