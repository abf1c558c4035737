// The documentation's links hold: every relative link in README.md, CONTRIBUTING.md, bench/README.md
// and docs/ names a file or folder that exists, every #anchor on a link to a Markdown page names one
// of its headings, and every page under docs/ can be reached from the README. Needs no database.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { expect, test } from 'vitest'

const root = path.resolve(import.meta.dirname, '..')

/** The pages whose links are checked, relative to `dir`, with forward slashes. */
function markdownPages(dir: string): string[] {
  const pages = ['README.md', 'CONTRIBUTING.md', 'bench/README.md'].filter((page) =>
    fs.existsSync(path.join(dir, page)),
  )
  const docs = path.join(dir, 'docs')
  if (fs.existsSync(docs)) {
    for (const entry of fs.readdirSync(docs, { recursive: true, encoding: 'utf8' })) {
      if (entry.endsWith('.md')) pages.push(path.posix.join('docs', entry.split(path.sep).join('/')))
    }
  }
  return pages.sort()
}

/** An mdast node, as far as the check reads it. */
type MarkdownNode = { type: string; value?: string; url?: string; children?: MarkdownNode[] }

/**
 * The page's nodes, in document order, parsed as the server parses Markdown (mdast-util-from-markdown,
 * server/text/markdown/parse.ts): a link or heading inside code is code, not a link or a heading.
 */
function nodes(markdown: string): MarkdownNode[] {
  const all: MarkdownNode[] = []
  const walk = (node: MarkdownNode) => {
    all.push(node)
    for (const child of node.children ?? []) walk(child)
  }
  walk(fromMarkdown(markdown) as MarkdownNode)
  return all
}

/** A node's text, as a heading's anchor is made from it (a link's words, a code span's code). */
function textOf(node: MarkdownNode): string {
  return node.value ?? (node.children ?? []).map(textOf).join('')
}

/** GitHub's anchor of a heading: lower case, punctuation but hyphens and spaces gone, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}_\- ]/gu, '')
    .replaceAll(' ', '-')
}

/** The anchors of a page's headings; a repeated heading gets -1, -2, ... as on GitHub. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const found = new Set<string>()
  for (const heading of nodes(markdown).filter((node) => node.type === 'heading')) {
    const base = slug(textOf(heading).trim())
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    found.add(count === 0 ? base : `${base}-${count}`)
  }
  return found
}

/** The targets of a page's links, images and link definitions. */
function linkTargets(markdown: string): string[] {
  return nodes(markdown)
    .filter((node) => node.type === 'link' || node.type === 'image' || node.type === 'definition')
    .map((node) => node.url ?? '')
}

/**
 * What is wrong with the documentation under `dir`: links to nothing, anchors that name no heading,
 * and pages under docs/ that no chain of links from README.md reaches. One line each.
 */
function checkDocs(dir: string): string[] {
  const findings: string[] = []
  const pages = markdownPages(dir)
  const read = (page: string) => fs.readFileSync(path.join(dir, page), 'utf8')
  const anchorsOf = new Map<string, Set<string>>()
  const links = new Map<string, string[]>()

  for (const page of pages) {
    const reached: string[] = []
    for (const target of linkTargets(read(page))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // http:, https:, mailto: and the like
      const [rawPath = '', anchor] = target.split('#', 2)
      const linked =
        rawPath === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURI(rawPath)))
      const file = path.join(dir, linked)
      if (linked.startsWith('..') || !fs.existsSync(file)) {
        findings.push(`${page}: ${target} names nothing`)
        continue
      }
      const isPage = linked.endsWith('.md') && fs.statSync(file).isFile()
      if (isPage) reached.push(linked)
      else if (fs.existsSync(path.join(file, 'README.md'))) reached.push(path.posix.join(linked, 'README.md'))
      if (anchor && isPage) {
        if (!anchorsOf.has(linked)) anchorsOf.set(linked, anchors(read(linked)))
        if (!anchorsOf.get(linked)?.has(anchor)) findings.push(`${page}: ${target} names no heading of ${linked}`)
      }
    }
    links.set(page, reached)
  }

  const reachable = new Set<string>(['README.md'])
  const queue = ['README.md']
  for (let page = queue.shift(); page !== undefined; page = queue.shift()) {
    for (const next of links.get(page) ?? []) {
      if (!reachable.has(next)) {
        reachable.add(next)
        queue.push(next)
      }
    }
  }
  for (const page of pages) {
    if (page.startsWith('docs/') && !reachable.has(page)) findings.push(`${page}: not reachable from README.md`)
  }
  return findings
}

test('every link in the documentation resolves, and every page under docs/ is reachable from the README', () => {
  expect(checkDocs(root)).toEqual([])
})

test('the check finds a broken link, a broken anchor and an orphan page, and nothing in code', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-docs-'))
  try {
    fs.mkdirSync(path.join(dir, 'docs', 'guides'), { recursive: true })
    fs.writeFileSync(
      path.join(dir, 'README.md'),
      [
        '# Fixture',
        '',
        'See [the guide](docs/guides/guide.md), [its setup](docs/guides/guide.md#set-it-up-now),',
        '[a missing page](docs/guides/missing.md), [a heading that is not there](docs/guides/guide.md#nowhere),',
        '[the site](https://example.com/nothing.md), [mail](mailto:someone@example.com) and [here](#fixture).',
        '',
        '```md',
        '[inside a code block](docs/not-a-link.md)',
        '```',
        '',
        'And `[in a code span](docs/not-a-link-either.md)`.',
      ].join('\n'),
    )
    fs.writeFileSync(
      path.join(dir, 'docs', 'guides', 'guide.md'),
      '# Guide\n\n## Set it up, now!\n\nBack to [the README](../../README.md#fixture).\n',
    )
    fs.writeFileSync(path.join(dir, 'docs', 'orphan.md'), '# Orphan\n\nNothing links here.\n')
    expect(checkDocs(dir)).toEqual([
      'README.md: docs/guides/missing.md names nothing',
      'README.md: docs/guides/guide.md#nowhere names no heading of docs/guides/guide.md',
      'docs/orphan.md: not reachable from README.md',
    ])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
