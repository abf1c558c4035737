import { expect, test } from 'vitest'
import { boundMarkdown } from '#server/text/markdown/bound.ts'

test('a report as Sextant writes it passes unchanged', () => {
  const report = [
    '**To:** Brief requester  \n**From:** Sextant  \n**Subject:** Sodium-ion batteries',
    '### What changed since 2026-11-14\n- **Updated:** Packs cost $80. (was: "Packs cost $90.", seen 2026-11-14) [1]',
    `### Findings\n${Array.from({ length: 60 }, (_, i) => `- Finding ${i} holds *a* \`figure\` [1][2]`).join('\n')}`,
    '> A quote\n> - with a list\n>   - nested under it',
    '```sh\nnpm run cli -- corpus index <dir>\n```',
  ].join('\n\n')
  expect(boundMarkdown(report)).toEqual({ text: report, literals: [], unread: report.split('\n').length })
})

test('containers past the eighth on a line are escaped, and long indents cut to 24 columns', () => {
  expect(boundMarkdown(`${'> '.repeat(10)}x`).text).toBe(`${'> '.repeat(8)}\\> > x`)
  expect(boundMarkdown(`- - - - 1. + * > - x`).text).toBe('- - - - 1. + * > \\- x')
  expect(boundMarkdown(`${' '.repeat(40)}- x\n\t\t\t\t\t\t\t- y`).text).toBe(
    `${' '.repeat(24)}- x\n${' '.repeat(24)}- y`,
  )
})

test('markup past the budget of a stretch is set aside whole, up to the next blank line', () => {
  // 600 marks on a line; a stretch may hold 500.
  const { text, literals } = boundMarkdown(`${'*a* '.repeat(300)}\nmore *b*\n\nNext *stretch*`)
  expect(text).toBe(`${'*a* '.repeat(250)}\uE0100\uE011\n\nNext *stretch*`)
  expect(literals).toEqual([`${'*a* '.repeat(50)}\nmore *b*`])
})

test('input cannot forge a literal stretch', () => {
  expect(boundMarkdown('a \uE0100\uE011 b').text).toBe('a 0 b')
})
