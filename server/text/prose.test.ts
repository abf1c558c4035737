import fc from 'fast-check'
import { expect, test } from 'vitest'
import { completeSentences, paragraphLines, proseParagraphs } from '#server/text/prose.ts'
import { renderedText } from '#server/text/rendered-text.ts'

test('prose paragraphs drop markdown that is not prose and keep list items and short lines apart', () => {
  const text = [
    '---',
    'title: Grid peak',
    'published: 2026-11-01',
    '---',
    'Heat pumps now set the winter peak',
    'The regional grid operator says heat pumps will add about 900 MW to its winter peak demand this',
    'year, the first winter in which heating drives its highest load. See the [full report](https://x.io/r).',
    '',
    'Grid peak',
    '=========',
    '',
    '- Demand response can shave **10%** off the peak.',
    '- Storage tanks help,',
    '  as a [2] footnote says.',
    '',
    '```sh',
    'npm run cli -- corpus index path/to/folder',
    '```',
    '| Year | Peak |',
    '> Quoted lines are prose,',
    '> joined like any other.',
  ].join('\n')
  expect(proseParagraphs(text)).toEqual([
    'Heat pumps now set the winter peak',
    'The regional grid operator says heat pumps will add about 900 MW to its winter peak demand this ' +
      'year, the first winter in which heating drives its highest load. See the full report.',
    'Demand response can shave 10% off the peak.',
    'Storage tanks help, as a footnote says.',
    'Quoted lines are prose, joined like any other.',
  ])
})

test('what is code, a heading or a list item is read as markdown does: longer fences, two-line headings, headings in lists', () => {
  const text = [
    'Heat pumps now set the winter peak across the whole of the regional grid, the operator says.',
    '',
    '````markdown',
    '```',
    'The sample shows how a fenced block of code is written in a page.',
    '```',
    '````',
    '',
    'A heading that the page wraps',
    'over two lines',
    '---',
    '',
    '- # Storage tanks',
    '- Storage tanks help the grid through the coldest mornings of the year.',
  ].join('\n')
  expect(proseParagraphs(text)).toEqual([
    'Heat pumps now set the winter peak across the whole of the regional grid, the operator says.',
    'Storage tanks help the grid through the coldest mornings of the year.',
  ])
})

test('a nested or repeated link in a page leaves its words only (the report defangs what is left)', () => {
  const text =
    'A barrage doubled its output, [[the operator said](https://a.test)](https://evil.test/phish). ' +
    'Read [[[more](https://e1.test)](https://e2.test)](https://e3.test) at <https://evil.test/x>.'
  expect(proseParagraphs(text)).toEqual([
    // As a reader sees the page, so the quote check finds the sentence there; sanitizeMarkdown in the
    // report turns the autolink into text.
    'A barrage doubled its output, the operator said. Read more at <https://evil.test/x>.',
  ])
})

test('100 KB of hostile page text is read in linear time', () => {
  const pages = [
    `${'> '.repeat(50_000)}Deep.`,
    Array.from({ length: 300 }, (_, i) => `${' '.repeat(i * 2)}- Item ${i} says something.`).join('\n'),
    '- Item.\n'.repeat(12_500),
    '# Title\n\nA paragraph of words.\n\n'.repeat(3_500),
  ]
  for (const page of pages) {
    const started = performance.now()
    proseParagraphs(page)
    // Linear is tens of milliseconds; a parser working in the square of the depth, seconds.
    expect(performance.now() - started).toBeLessThan(3_000)
  }
}, 60_000)

test('a page with no line that could open a block is split as the parser would split it, without the parser', () => {
  // Prose, things that only look like markup (indented, tabbed, raw HTML, which is never parsed), and
  // block markers, which open a block at the start of a line and are prose anywhere else: a check
  // that missed one would split those pages unlike the parser.
  const pieces = ['', ' ', '    ', '\t', 'Heat pumps', 'cut bills by 40%.', '<div>', '9.5 kW', 'a-b']
  const markers = ['# ', '## x', '> ', '- ', '* ', '+ ', '1. ', '2) ', '---', '===', '___', '```', '~~~', '[a]: /u']
  pieces.push(...markers)
  const line = fc.array(fc.constantFrom(...pieces), { maxLength: 4 }).map((parts) => parts.join(''))
  fc.assert(
    fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
      const page = lines.join('\n')
      expect(paragraphLines(page)).toEqual(paragraphLines(page, true))
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 1000) },
  )
}, 120_000)

test('a page the renderer leaves as it is has no line, nor run of lines, the renderer would change', () => {
  // proseParagraphs renders such a page's paragraphs no further: this is what makes that exact.
  const piece = fc.constantFrom(
    ...['a', ' ', '\n', '[', ']', '(', ')', '!', '*', '_', '`', '1', ',', 'x y', '[1]', '**', '`x`'],
  )
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
      const page = pieces.join('')
      if (renderedText(page) !== page) return
      const lines = page.split('\n')
      for (let from = 0; from < lines.length; from++) {
        for (let to = from + 1; to <= lines.length; to++) {
          const stretch = lines.slice(from, to).join('\n')
          expect(renderedText(stretch)).toBe(stretch)
        }
      }
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 1000) },
  )
})

test('a short answer before a sentence is a sentence of its own; an abbreviation joins the words after it', () => {
  const paragraph = (text: string) => proseParagraphs(text).flatMap(completeSentences)
  // A question page answers "No." or "Not necessarily." and then says the fact: the fact is the sentence.
  expect(paragraph('No. Health board members voted on Tuesday to overturn their decision.')).toEqual([
    'Health board members voted on Tuesday to overturn their decision.',
  ])
  expect(paragraph('Not necessarily. Councillors will be asked to vote again on 20 January.')).toEqual([
    'Councillors will be asked to vote again on 20 January.',
  ])
  // ICU breaks after an abbreviation too: a title, initials and "No." before a number are one sentence.
  expect(paragraph('Dr. Ama Osei will chair the inquiry.')).toEqual(['Dr. Ama Osei will chair the inquiry.'])
  expect(paragraph('J. R. Hartley joined the board in May.')).toEqual(['J. R. Hartley joined the board in May.'])
  expect(paragraph('No. 4 Quay Street will close in June.')).toEqual(['No. 4 Quay Street will close in June.'])
})
