import type { Nodes } from 'mdast'
import { expect, test } from 'vitest'
import { markdownToMrkdwn } from '#server/notify/slack/mrkdwn.ts'
import { markCitations } from '#server/text/markdown/citations.ts'
import { applyLinkPolicy } from '#server/text/markdown/link-policy.ts'
import { parseMarkdown } from '#server/text/markdown/parse.ts'
import { plainText } from '#server/text/markdown/plain.ts'
import { reportTree } from '#server/text/markdown/report-tree.ts'

const SOURCES = ['https://example.com/a', 'https://example.org/b']

/** Every node of the tree in document order, with its depth. */
function nodes(tree: Nodes): Array<{ node: Nodes; depth: number }> {
  const all: Array<{ node: Nodes; depth: number }> = []
  const stack = [{ node: tree, depth: 0 }]
  while (stack.length > 0) {
    const entry = stack.pop() as { node: Nodes; depth: number }
    all.push(entry)
    const children: Nodes[] = 'children' in entry.node ? entry.node.children : []
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i] as Nodes, depth: entry.depth + 1 })
  }
  return all
}

function links(markdown: string, sources = SOURCES): string[] {
  return nodes(reportTree(markdown, sources)).flatMap(({ node }) => (node.type === 'link' ? [node.url] : []))
}

test('a link survives only to a source, and only as an http(s) URL', () => {
  expect(links('[a](https://example.com/a) [b](https://evil.test/) ![c](https://example.org/b)')).toEqual([
    'https://example.com/a',
  ])
  // Even a "source" that is not a web address is never a link target.
  expect(
    links('[run](javascript:alert(1)) [x](data:text/html,x)', ['javascript:alert(1)', 'data:text/html,x']),
  ).toEqual([])
  // On the tree itself, before any text policy: references, images, definitions and HTML are text.
  const tree = applyLinkPolicy(
    parseMarkdown(
      '[ref][x] ![img][x] <a href="https://example.com/a">a</a> <https://example.com/a>\n\n[x]: https://example.com/a',
    ),
    SOURCES,
  )
  expect(nodes(tree).filter(({ node }) => /link|image|definition|html/i.test(node.type))).toEqual([])
  expect(plainText(tree)).toBe('ref img <a href="https://example.com/a">a</a> <https://example.com/a>')
})

test('citations are nodes, with the URL of each number that has a source; in a link they are its text', () => {
  const tree = reportTree('Cost fell [1], [1; 2] and [2][9], [2, 9]; [9] and [0] cite nothing.', SOURCES)
  const citations = nodes(tree).flatMap(({ node }) => (node.type === 'citation' ? [node.sources] : []))
  const one = { n: 1, url: 'https://example.com/a', href: 'https://example.com/a' }
  const two = { n: 2, url: 'https://example.org/b', href: 'https://example.org/b' }
  expect(citations).toEqual([[one], [one, two], [two], [two, { n: 9, url: undefined, href: undefined }]])
  expect(plainText(tree)).toContain('[9] and [0] cite nothing.')
  const inLink = markCitations(parseMarkdown('[see [1]](https://example.com/a)'), SOURCES)
  expect(nodes(inLink).filter(({ node }) => node.type === 'citation')).toEqual([])
})

test("a corpus document's name is no address: links and citations to it go to its page on this server", () => {
  const corpus = 'https://corpus.local/heat-pumps/defrost-cycles.md'
  const sources = [corpus, 'javascript:alert(1)']
  const markdown = 'Defrost [the article](https://corpus.local/heat-pumps/defrost-cycles.md) [1] [2]'
  // On the pages: the page's path on this site.
  const tree = reportTree(markdown, sources)
  expect(nodes(tree).flatMap(({ node }) => (node.type === 'link' ? [node.url] : []))).toEqual([
    '/corpus/heat-pumps/defrost-cycles.md',
  ])
  const cited = nodes(tree).flatMap(({ node }) => (node.type === 'citation' ? node.sources : []))
  expect(cited).toEqual([
    { n: 1, url: corpus, href: '/corpus/heat-pumps/defrost-cycles.md' },
    { n: 2, url: 'javascript:alert(1)', href: undefined },
  ])
  // Away from the pages (Slack): the page at this server's public URL; a source no link may point to is a number.
  expect(markdownToMrkdwn(markdown, sources, { site: 'https://sextant.example' })).toBe(
    'Defrost <https://sextant.example/corpus/heat-pumps/defrost-cycles.md|the article> ' +
      '[<https://sextant.example/corpus/heat-pumps/defrost-cycles.md|1>] [2]',
  )
})

// Texts a page or a model could write to make a parser work in the square of their length, or nest
// deeper than any stack: 100 KB each.
const HOSTILE: Record<string, string> = {
  'emphasis pairs': '*a* '.repeat(25_000),
  'nested emphasis': `${'*a '.repeat(16_000)}${'a* '.repeat(16_000)}`,
  'one run of stars': `${'*'.repeat(50_000)}a${'*'.repeat(50_000)}`,
  brackets: '[a]('.repeat(25_000),
  'nested links': '[[label](https://a.test)](https://evil.test/phish) '.repeat(2_000),
  'code spans': Array.from({ length: 450 }, (_, i) => `${'`'.repeat(i + 1)}a`).join(' '),
  'quotes on one line': `${'> '.repeat(50_000)}x`,
  'lists on one line': `${'- '.repeat(50_000)}x`,
  'ever deeper lists': Array.from({ length: 300 }, (_, i) => `${' '.repeat(i * 2)}- x`).join('\n'),
  'list items': '- *a* [1]\n'.repeat(10_000),
  paragraphs: 'a [1] **b**\n\n'.repeat(8_000),
}

test('100 KB of hostile markdown is parsed and drawn in linear time, no deeper than a stack allows', () => {
  for (const [name, markdown] of Object.entries(HOSTILE)) {
    expect(markdown.length, name).toBeGreaterThan(90_000)
    const started = performance.now()
    const tree = reportTree(markdown, SOURCES)
    markdownToMrkdwn(markdown, SOURCES)
    // Linear is milliseconds to tens of them here; the square of 100 KB is minutes. A bound this
    // generous holds on a busy machine and still fails every quadratic path.
    expect(performance.now() - started, name).toBeLessThan(3_000)
    expect(Math.max(...nodes(tree).map(({ depth }) => depth)), name).toBeLessThan(300)
  }
}, 60_000)

test('past the bounds, text is kept as literal text, not lost', () => {
  const markdown = `${'*a* '.repeat(1_000)}tail *not emphasis* [1]`
  const tree = reportTree(markdown, SOURCES)
  expect(plainText(tree)).toContain('*a* *a* tail *not emphasis* [1]')
  expect(nodes(tree).filter(({ node }) => node.type === 'emphasis').length).toBeLessThan(500)
})
