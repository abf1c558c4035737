// A deliberately small markdown renderer for reports: only what the synthesizers write (## and ###
// headings, paragraphs, - and 1. lists, **bold**, *italic*, `code`, links to the report's own
// sources and [n] citations). It builds React elements, so anything else (raw HTML included) stays
// text; links anywhere else (a page's, a model's, nested or not) are sanitised to text first.
import type { ReactNode } from 'react'
import { corpusPagePath } from '#server/providers/search/corpus-url.ts'
import { sanitizeMarkdown } from '#server/text/markdown-links.ts'

type Block =
  | { kind: 'heading'; level: 2 | 3; text: string }
  | { kind: 'paragraph'; lines: string[] }
  | { kind: 'list'; ordered: boolean; start: number; items: string[] }

const HEADING = /^(#{2,3})[ \t]+(.+?)[ \t#]*$/
const BULLET = /^[ \t]{0,3}[-*+][ \t]+(.*)$/
const NUMBERED = /^[ \t]{0,3}(\d{1,9})[.)][ \t]+(.*)$/
const CONTINUATION = /^[ \t]{2,}\S/

export function parseBlocks(markdown: string): Block[] {
  const blocks: Block[] = []
  let current: Block | undefined
  const close = () => {
    if (current) blocks.push(current)
    current = undefined
  }
  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.trim() === '') {
      close()
      continue
    }
    const heading = HEADING.exec(line)
    if (heading) {
      close()
      blocks.push({ kind: 'heading', level: heading[1] === '##' ? 2 : 3, text: heading[2] ?? '' })
      continue
    }
    const bullet = BULLET.exec(line)
    const numbered = bullet ? null : NUMBERED.exec(line)
    if (bullet || numbered) {
      const ordered = numbered !== null
      const text = (bullet ? bullet[1] : numbered?.[2]) ?? ''
      if (current?.kind !== 'list' || current.ordered !== ordered) {
        close()
        current = { kind: 'list', ordered, start: numbered ? Number(numbered[1]) : 1, items: [] }
      }
      current.items.push(text)
      continue
    }
    // An indented line under a list item continues that item; any other line, the paragraph.
    if (current?.kind === 'list' && CONTINUATION.test(line)) {
      const last = current.items.length - 1
      current.items[last] = `${current.items[last]} ${line.trim()}`
      continue
    }
    if (current?.kind !== 'paragraph') {
      close()
      current = { kind: 'paragraph', lines: [] }
    }
    current.lines.push(line)
  }
  close()
  return blocks
}

type InlineOptions = {
  /** Citations [n] link to #source-n only when source n exists; otherwise they stay text. */
  sourceCount: number
  /** The only URLs a link may point to: the report's sources. */
  linkable: ReadonlySet<string>
  /** Inside a link's text: no nested links or citations. */
  inLink?: boolean
}

const CITATION = /^\[(\d{1,4})\](?!\()/
const LINK = /^\[([^\]\n]+)\]\(([^()\s]+)\)/

/**
 * A link target only when it is an absolute http(s) URL, or a local corpus document (its page here:
 * its own name is no address); javascript:, data: and the rest are refused.
 */
export function safeHref(raw: string): string | undefined {
  if (!URL.canParse(raw)) return undefined
  const corpusPage = corpusPagePath(raw)
  if (corpusPage) return corpusPage
  const url = new URL(raw)
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined
}

export function renderInline(text: string, options: InlineOptions, keyPrefix = 'i'): ReactNode[] {
  const nodes: ReactNode[] = []
  let plain = ''
  const flush = () => {
    if (plain) nodes.push(plain)
    plain = ''
  }
  const key = () => `${keyPrefix}-${nodes.length}`
  let i = 0
  while (i < text.length) {
    const rest = text.slice(i)
    const char = text[i]
    if (char === '`') {
      const end = text.indexOf('`', i + 1)
      if (end > i + 1) {
        flush()
        nodes.push(
          <code key={key()} className="rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em]">
            {text.slice(i + 1, end)}
          </code>,
        )
        i = end + 1
        continue
      }
    }
    if (rest.startsWith('**')) {
      const end = text.indexOf('**', i + 2)
      if (end > i + 2) {
        flush()
        const k = key()
        nodes.push(<strong key={k}>{renderInline(text.slice(i + 2, end), options, k)}</strong>)
        i = end + 2
        continue
      }
    }
    if (char === '*' && text[i + 1] !== '*' && /\S/.test(text[i + 1] ?? ' ')) {
      const end = findClosingStar(text, i + 1)
      if (end > 0) {
        flush()
        const k = key()
        nodes.push(<em key={k}>{renderInline(text.slice(i + 1, end), options, k)}</em>)
        i = end + 1
        continue
      }
    }
    if (char === '[' && !options.inLink) {
      const citation = CITATION.exec(rest)
      const n = Number(citation?.[1])
      if (citation && n >= 1 && n <= options.sourceCount) {
        flush()
        nodes.push(<Citation key={key()} n={n} />)
        i += citation[0].length
        continue
      }
      const link = LINK.exec(rest)
      const href = link && options.linkable.has(link[2] ?? '') ? safeHref(link[2] ?? '') : undefined
      if (link && href) {
        flush()
        const k = key()
        nodes.push(
          <a
            key={k}
            href={href}
            target="_blank"
            rel="noopener noreferrer"
            className="text-indigo-700 underline hover:text-indigo-900"
          >
            {renderInline(link[1] ?? '', { ...options, inLink: true }, k)}
          </a>,
        )
        i += link[0].length
        continue
      }
    }
    if (char === '\n') {
      flush()
      nodes.push(<br key={key()} />)
      i += 1
      continue
    }
    plain += char
    i += 1
  }
  flush()
  return nodes
}

/** The closing * of an italic span: not part of **, and not after a space. */
function findClosingStar(text: string, from: number): number {
  for (let j = from + 1; j < text.length; j++) {
    if (text[j] !== '*') continue
    if (text[j + 1] === '*' || text[j - 1] === '*') {
      j += 1
      continue
    }
    if (/\S/.test(text[j - 1] ?? ' ')) return j
  }
  return -1
}

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

/** A paragraph's lines as one text; "\n" marks markdown's hard line breaks, which the memo header uses. */
function paragraphText(lines: string[]): string {
  return lines
    .map((line, index) => {
      const text = index === 0 ? line : line.trimStart()
      if (index === lines.length - 1) return text.trimEnd()
      return / {2,}$|\\$/.test(text) ? `${text.replace(/( {2,}|\\)$/, '')}\n` : `${text} `
    })
    .join('')
}

/**
 * `headingLevel` is the HTML level of a `##` heading, so the report fits under the page's own
 * headings; `###` is one below it.
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
  const options = { sourceCount: sourceUrls.length, linkable: new Set(sourceUrls) }
  return (
    <div className="flex flex-col gap-3 leading-relaxed text-slate-800">
      {parseBlocks(sanitizeMarkdown(markdown, sourceUrls)).map((block, index) => {
        const key = `b${index}`
        if (block.kind === 'heading') {
          const level = Math.min(6, headingLevel + block.level - 2)
          const Tag = `h${level}` as 'h2' | 'h3' | 'h4' | 'h5'
          return (
            <Tag
              key={key}
              className={
                block.level === 2
                  ? 'mt-2 text-xl font-semibold text-slate-900'
                  : 'mt-2 text-lg font-semibold text-slate-900'
              }
            >
              {renderInline(block.text, options, key)}
            </Tag>
          )
        }
        if (block.kind === 'list') {
          const items = block.items.map((item, itemIndex) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is static text; its order is its identity
            <li key={itemIndex}>{renderInline(item, options, `${key}-${itemIndex}`)}</li>
          ))
          return block.ordered ? (
            <ol key={key} start={block.start} className="list-decimal space-y-1 pl-6">
              {items}
            </ol>
          ) : (
            <ul key={key} className="list-disc space-y-1 pl-6">
              {items}
            </ul>
          )
        }
        return <p key={key}>{renderInline(paragraphText(block.lines), options, key)}</p>
      })}
    </div>
  )
}
