import { expect, test } from 'vitest'
import { abstractText } from '#server/providers/search/openalex.ts'
import { arxivAbsUrl, isoDate, plainText, significantWords } from '#server/providers/search/source-text.ts'

test("significantWords keeps a planned query's distinctive words, hyphenated ones whole, at most so many", () => {
  expect(significantWords('What are the latest sodium-ion battery costs in the EU for 2026?', 5)).toEqual([
    'latest',
    'sodium-ion',
    'battery',
    'costs',
    'EU',
  ])
  // GDELT refuses keywords under 3 characters; repeated words count once.
  expect(significantWords('AI chips and AI rules in 2026', 5, 3)).toEqual(['chips', 'rules', '2026'])
  expect(significantWords('of the to', 5)).toEqual([])
})

test('plainText drops tags and decodes entities, numeric ones included, and nothing else', () => {
  expect(plainText('<p>We ran <i>two</i> packs &amp; it&#x27;s fine.<p>Cold: &#8722;20&nbsp;C &bogus;')).toBe(
    "We ran two packs & it's fine. Cold: −20 C &bogus;",
  )
  expect(plainText('&#1114112; &#0;')).toBe('&#1114112; &#0;')
})

test('arxivAbsUrl names a preprint one way, whatever link to it was given', () => {
  for (const url of [
    'http://arxiv.org/abs/2609.01234v2',
    'https://arxiv.org/abs/2609.01234',
    'https://export.arxiv.org/abs/2609.01234v1',
    'https://arxiv.org/pdf/2609.01234v3.pdf',
  ]) {
    expect(arxivAbsUrl(url), url).toBe('https://arxiv.org/abs/2609.01234')
  }
  expect(arxivAbsUrl('http://arxiv.org/abs/hep-ex/0307015v1')).toBe('https://arxiv.org/abs/hep-ex/0307015')
  expect(arxivAbsUrl('https://doi.org/10.48550/arXiv.2609.01234')).toBeUndefined()
})

test("OpenAlex's inverted index becomes the abstract in reading order; absurd positions are ignored", () => {
  expect(abstractText({ cells: [2], Sodium: [0], ion: [1], 'last.': [3] })).toBe('Sodium ion cells last.')
  expect(abstractText({ Fine: [0], huge: [5_000_000_000], negative: [-1], half: [0.5] })).toBe('Fine')
  expect(abstractText(null)).toBe('')
})

test("isoDate keeps ISO dates as given and reads providers' other forms as UTC", () => {
  expect(isoDate('2026-11-18')).toBe('2026-11-18')
  expect(isoDate('2026-11-18T08:00:00')).toBe('2026-11-18T08:00:00')
  expect(isoDate('2026-11-18 08:00:00+01:00')).toBe('2026-11-18T08:00:00+01:00')
  // Tavily's HTTP date; Brave's `age` for an older page, whatever the server's time zone.
  expect(isoDate('Mon, 13 Jan 2025 18:45:12 GMT')).toBe('2025-01-13T18:45:12.000Z')
  expect(isoDate('January 15, 2024')).toBe('2024-01-15')
  expect(isoDate('3 days ago')).toBeNull()
  expect(isoDate('')).toBeNull()
  expect(isoDate(null)).toBeNull()
})
