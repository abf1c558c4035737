import { expect, test } from 'vitest'
import { abstractText } from '#server/providers/search/openalex.ts'
import { arxivAbsUrl, plainText, significantWords } from '#server/providers/search/source-text.ts'

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
