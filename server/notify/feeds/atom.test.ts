// The Atom document for hostile text: topic names, claims, quotes and source titles come from users
// and web pages. Each must read back as the same text, never as markup, in a well-formed document.
import { expect, test } from 'vitest'
import { renderAtom } from '#server/notify/feeds/atom.ts'
import type { FeedContent } from '#server/notify/feeds/feeds.ts'
import { RULES_JUDGED } from '#server/research/report-summary.ts'
import type { Report } from '#server/research/report-types.ts'
import { parseAtom } from '#test/support/atom.ts'

const HOSTILE = 'a ]]> b ]]><script>alert(1)</script> & &amp; "q" \'s\' <![CDATA[ x'
const runId = '6f1c4b3e-1111-4222-8333-444455556666'

function report(): Report {
  const previous = { text: `old ${HOSTILE}`, seenAt: '2026-11-01T00:00:00.000Z', urls: ['https://example.com/old'] }
  return {
    summary: '',
    delta: {
      baseline: false,
      since: '2026-11-01T00:00:00.000Z',
      newFindings: [{ text: `new ${HOSTILE}\u0001\u0008`, quote: `quote ${HOSTILE}\uD800`, sources: [1, 2] }],
      updated: [{ text: `updated ${HOSTILE}`, quote: 'q', sources: [1], previous }],
      contradicted: [{ text: `contra ${HOSTILE}`, quote: 'q', sources: [2], previous }],
      confirmed: 0,
      summary: '',
    },
    integrity: { claims: 3, shown: 3, droppedUnsupported: 0, recited: 0, ownWords: 0, offTopic: 0 },
    sources: [
      { n: 1, url: 'https://example.com/a?x=1&y="2"', title: `title ${HOSTILE}`, publishedAt: null, snippet: '' },
      { n: 2, url: 'javascript:alert(1)', title: 'sneaky', publishedAt: null, snippet: '' },
    ],
    generatedWith: { synthesis: 'x', synthesisKind: 'extractive', search: 'x', plan: 'fallback' },
    usage: { inputTokens: 0, outputTokens: 0, searchCalls: 0, costDollars: null },
  }
}

function content(topic: string): FeedContent {
  return {
    id: '0b0b0b0b-1111-4222-8333-444455556666',
    topic,
    topicId: '1c1c1c1c-1111-4222-8333-444455556666',
    seriesId: null,
    createdAt: new Date('2026-11-20T00:00:00Z'),
    entries: [{ runId, finishedAt: new Date('2026-11-24T10:00:00Z'), report: report() }],
  }
}

test('hostile text in titles, claims, quotes and sources stays text in a well-formed Atom document', () => {
  const xml = renderAtom(content(`topic ${HOSTILE}\u0007`), {
    publicUrl: 'https://sextant.example',
    selfUrl: 'https://sextant.example/feeds/t.atom',
  })
  const feed = parseAtom(xml) // well-formed, with every element Atom requires
  expect(feed.title).toBe(`Sextant: topic ${HOSTILE}`)
  expect(feed.id).toBe('urn:uuid:0b0b0b0b-1111-4222-8333-444455556666')
  expect(feed.updated).toBe('2026-11-24T10:00:00.000Z')
  expect(feed.entries).toHaveLength(1)
  const [entry] = feed.entries
  expect(entry?.id).toBe(`urn:uuid:${runId}`)
  expect(entry?.links).toEqual([`https://sextant.example/dashboard/runs/${runId}`])
  // type="html": the title is escaped HTML, so a reader shows the hostile text, not markup.
  expect(entry?.title).toBe(
    'topic a ]]&gt; b ]]&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &amp;amp; &quot;q&quot; &#39;s&#39; &lt;![CDATA[ x: 1 new, 1 updated, 1 contradicted',
  )
  const html = entry?.content ?? ''
  expect(html).not.toMatch(/<script|<!\[CDATA\[|\]\]>/)
  expect(html).toContain('new a ]]&gt; b ]]&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &amp;amp;')
  expect(html).toContain('<q>quote a ]]&gt;')
  expect(html).toContain('<h3>Updated</h3>')
  expect(html).toContain('(was, 2026-11-01: old a ]]&gt;')
  expect(html).toContain('<h3>Contradicted</h3>')
  // A web source is a link (its address escaped); anything else a page called itself is text.
  expect(html).toContain('<a href="https://example.com/a?x=1&amp;y=&quot;2&quot;">title a ]]&gt;')
  expect(html).not.toContain('javascript:')
  expect(html).toContain('sneaky')
  // Characters XML cannot hold are gone, not passed on to break a reader.
  for (const control of ['\u0001', '\u0007', '\u0008']) expect(xml).not.toContain(control)
})

test('a feed without entries is still a valid feed, updated when it was made', () => {
  const empty = { ...content('heat pumps'), entries: [] }
  const feed = parseAtom(
    renderAtom(empty, { publicUrl: 'https://s.example', selfUrl: 'https://s.example/feeds/t.atom' }),
  )
  expect(feed.entries).toEqual([])
  expect(feed.updated).toBe('2026-11-20T00:00:00.000Z')
  expect(feed.links).toEqual([
    'https://s.example/dashboard/topics/1c1c1c1c-1111-4222-8333-444455556666',
    'https://s.example/feeds/t.atom',
  ])
})

test('an entry says where its sources came from when they are not the web, and what memory held beside an undecided finding', () => {
  const entryReport = report()
  entryReport.notice = 'This report searched the sample corpus bundled with Sextant: invented articles, not the web.'
  entryReport.delta.newFindings = [
    {
      text: 'The council voted down the loan.',
      quote: 'voted down',
      sources: [1],
      memoryHeld: { text: 'Lawmakers approved the loan.', seenAt: '2026-11-01T00:00:00.000Z', urls: [] },
    },
  ]
  const feed = content('tram')
  feed.entries = [{ runId, finishedAt: new Date('2026-11-24T10:00:00Z'), report: entryReport }]
  const html = parseAtom(
    renderAtom(feed, { publicUrl: 'https://sextant.example', selfUrl: 'https://sextant.example/f.atom' }),
  ).entries[0]?.content
  expect(html?.startsWith(`<p><strong>${entryReport.notice}</strong></p>`)).toBe(true)
  expect(html).toContain('(memory held: Lawmakers approved the loan.)')
})

test('an entry whose changes rules alone compared with memory says so after them', () => {
  const render = (judge: 'model' | 'rules') => {
    const entryReport = report()
    entryReport.generatedWith = { ...entryReport.generatedWith, judge }
    const feed = content('tram')
    feed.entries = [{ runId, finishedAt: new Date('2026-11-24T10:00:00Z'), report: entryReport }]
    const atom = renderAtom(feed, { publicUrl: 'https://sextant.example', selfUrl: 'https://sextant.example/f.atom' })
    return parseAtom(atom).entries[0]?.content ?? ''
  }
  expect(render('rules').endsWith(`<p><em>${RULES_JUDGED}</em></p>`)).toBe(true)
  expect(render('model')).not.toContain(RULES_JUDGED)
})
