import { expect, test } from 'vitest'
import type { PageReader, ReadPage } from '#server/providers/reader/page-reader.ts'
import { type Found, newReadState, readSnippetPages, unreadWarning } from '#server/research/read-pages.ts'

const signal = new AbortController().signal

function result(url: string, overrides: Partial<Found> = {}): Found {
  return {
    url,
    title: 'A title',
    publishedDate: null,
    text: 'A snippet.',
    snippetOnly: true,
    query: 'heat pumps',
    ...overrides,
  }
}

/** A reader answering from a table of pages, recording what it was asked for. */
function readerOf(pages: Record<string, ReadPage>): PageReader & { asked: string[] } {
  const asked: string[] = []
  return {
    asked,
    async read(url) {
      asked.push(url)
      return pages[url] ?? { ok: false, reason: 'the site answered 404' }
    },
  }
}

const article = (text: string, publishedDate: string | null = null): ReadPage => ({
  ok: true,
  url: 'ignored',
  title: 'Page title',
  text,
  publishedDate,
})

test('snippet-only results get their article; others, and results tried in an earlier round, are left alone', async () => {
  const body = 'Heat pumps kept Røros warm at minus 38 degrees. Peak demand rose by only 11 percent.'
  const found = new Map<string, Found>([
    ['https://a.example/1', result('https://a.example/1')],
    ['https://b.example/full', result('https://b.example/full', { snippetOnly: false, text: 'Whole text already.' })],
  ])
  const reader = readerOf({ 'https://a.example/1': article(body, '2026-11-01T00:00:00Z') })
  const options = { brief: 'heat pumps', maxCharacters: 1000, limit: 10, state: newReadState(), signal }
  expect(await readSnippetPages(found, reader, options)).toEqual({ read: 1, unread: [] })
  expect(found.get('https://a.example/1')).toMatchObject({
    text: body,
    snippetOnly: false,
    publishedDate: '2026-11-01T00:00:00Z',
    title: 'A title',
  })
  expect(found.get('https://b.example/full')?.text).toBe('Whole text already.')

  found.set('https://c.example/2', result('https://c.example/2'))
  expect(await readSnippetPages(found, reader, options)).toEqual({
    read: 0,
    unread: [{ url: 'https://c.example/2', reason: 'the site answered 404' }],
  })
  expect(reader.asked).toEqual(['https://a.example/1', 'https://c.example/2'])
})

test('at most `limit` pages a run, and at most 4 of one site; the rest keep their snippet and say why', async () => {
  const found = new Map<string, Found>()
  for (let i = 0; i < 6; i++) found.set(`https://www.news.example/${i}`, result(`https://www.news.example/${i}`))
  for (let i = 0; i < 6; i++) found.set(`https://blog.example/${i}`, result(`https://blog.example/${i}`))
  for (let i = 0; i < 2; i++) found.set(`https://c.example/${i}`, result(`https://c.example/${i}`))
  const reader = readerOf({})
  const outcome = await readSnippetPages(found, reader, {
    brief: 'heat pumps',
    maxCharacters: 1000,
    limit: 9,
    state: newReadState(),
    signal,
  })
  // 4 of news.example, then 4 of blog.example (pages over a site's cap do not spend the run's
  // limit), then one of c.example: the ninth page, the limit.
  expect(reader.asked).toEqual([
    ...[0, 1, 2, 3].map((i) => `https://www.news.example/${i}`),
    ...[0, 1, 2, 3].map((i) => `https://blog.example/${i}`),
    'https://c.example/0',
  ])
  expect(outcome.unread.filter((page) => page.reason === 'the run reads at most 4 pages of one site')).toHaveLength(4)
  expect(outcome.unread.filter((page) => page.reason === 'the site answered 404')).toHaveLength(9)
})

test('a long article is cut to the passages about the brief; an article no longer than the snippet keeps the snippet', async () => {
  const filler = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} is about the town's history and its church.`)
  const long = [...filler.slice(0, 15), 'Heat pumps cut heating bills by 40 percent in Trøndelag.', ...filler.slice(15)]
  const found = new Map<string, Found>([
    ['https://a.example/long', result('https://a.example/long')],
    ['https://a.example/short', result('https://a.example/short', { text: 'A snippet longer than the page text.' })],
  ])
  const reader = readerOf({
    'https://a.example/long': article(long.join('\n\n')),
    'https://a.example/short': article('Too short.'),
  })
  const outcome = await readSnippetPages(found, reader, {
    brief: 'heat pumps heating bills',
    maxCharacters: 300,
    limit: 10,
    state: newReadState(),
    signal,
  })
  const text = found.get('https://a.example/long')?.text ?? ''
  expect(text.length).toBeLessThanOrEqual(300)
  expect(text).toContain('Heat pumps cut heating bills by 40 percent in Trøndelag.')
  expect(outcome.unread).toEqual([
    { url: 'https://a.example/short', reason: 'its article text is no longer than the snippet' },
  ])
  expect(found.get('https://a.example/short')?.text).toBe('A snippet longer than the page text.')
})

test('the warning names how many pages kept their snippet, the commonest reasons first, with sites', () => {
  expect(unreadWarning([])).toBeNull()
  expect(unreadWarning([{ url: 'https://www.a.example/x', reason: 'robots.txt disallows it' }])).toBe(
    "1 page could not be read and keeps the search engine's snippet: robots.txt disallows it (a.example).",
  )
  expect(
    unreadWarning([
      { url: 'https://a.example/1', reason: 'the site answered 403' },
      { url: 'https://b.example/1', reason: 'robots.txt disallows it' },
      { url: 'https://b.example/2', reason: 'robots.txt disallows it' },
      { url: 'https://c.example/2', reason: 'robots.txt disallows it' },
    ]),
  ).toBe(
    "4 pages could not be read and keep the search engine's snippet: robots.txt disallows it (b.example, c.example; 3 pages); the site answered 403 (a.example).",
  )
})

test('pages left unread are listed in the order they were chosen, not the order their reads ended', async () => {
  const found = new Map(
    ['https://a.example/1', 'https://b.example/2', 'https://c.example/3'].map((url) => [url, result(url)]),
  )
  // The first page's read ends last.
  const delays: Record<string, number> = {
    'https://a.example/1': 30,
    'https://b.example/2': 10,
    'https://c.example/3': 0,
  }
  const reader: PageReader = {
    async read(url) {
      await new Promise((resolve) => setTimeout(resolve, delays[url]))
      return { ok: false, reason: `no page at ${url}` }
    },
  }
  const { unread } = await readSnippetPages(found, reader, {
    brief: 'heat pumps',
    maxCharacters: 3000,
    limit: 10,
    state: newReadState(),
    signal,
  })
  expect(unread.map((entry) => entry.url)).toEqual([...found.keys()])
})
