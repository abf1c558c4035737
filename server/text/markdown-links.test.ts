import fc from 'fast-check'
import { expect, test } from 'vitest'
import { sanitizeMarkdown } from '#server/text/markdown-links.ts'
import { unexpectedTargets } from '#test/support/clickable-links.ts'

const SOURCE = 'https://source.example/a'
const OTHER_SOURCE = 'https://other.example/b?x=1'
const ALLOWED = [SOURCE, OTHER_SOURCE]

test('a nested link loses both targets, however deep, and whatever the inner target', () => {
  expect(sanitizeMarkdown('[[label](https://a.test)](https://evil.test/phish)')).toBe('label')
  expect(sanitizeMarkdown('See [[[[x](https://e1.test)](https://e2.test)](https://e3.test)](https://e4.test).')).toBe(
    'See x.',
  )
  // An allowed inner link does not carry the outer one with it.
  expect(sanitizeMarkdown(`[[label](${SOURCE})](https://evil.test/phish)`, ALLOWED)).toBe(`[label](${SOURCE})`)
  expect(sanitizeMarkdown(`[[label](https://evil.test)](${SOURCE})`, ALLOWED)).toBe(`[label](${SOURCE})`)
})

test('links to allowed URLs stay; other targets, images and titles leave their text only', () => {
  expect(sanitizeMarkdown(`Read [the source](${SOURCE}) and [this](https://evil.test "t").`, ALLOWED)).toBe(
    `Read [the source](${SOURCE}) and this.`,
  )
  expect(sanitizeMarkdown(`![chart](${SOURCE}) [a](javascript:alert(1)) [b](//evil.test) [c]()`, ALLOWED)).toBe(
    'chart a b c',
  )
  expect(sanitizeMarkdown('[a]( <https://evil.test> ) and [b](https://evil.test/a_(b))')).toBe('a and b')
  // A label that is itself a URL is not shown as a link to somewhere else.
  expect(sanitizeMarkdown(`[https://evil.test](${SOURCE})`, ALLOWED)).toBe('https[:]//evil[.]test')
  // "](" that opens no valid target is split so that no renderer reads a link into it.
  expect(sanitizeMarkdown('[a](b c) and x](')).toBe('[a] (b c) and x] (')
})

test('reference definitions, autolinks, bare URLs, www. and e-mail addresses are defused', () => {
  expect(sanitizeMarkdown('[click][1] and [here]\n\n[1]: https://evil.test\n[here]: <https://evil.test>')).toBe(
    '[click][1] and [here]\n\n[1] : https[:]//evil[.]test\n[here] : https[:]//evil[.]test',
  )
  expect(sanitizeMarkdown('<https://evil.test/x> <mailto:a@evil.test> <a@evil.test>')).toBe(
    'https[:]//evil[.]test/x mailto:a@evil[.]test a@evil[.]test',
  )
  // Slack's "<url|label>", whose label may hold a space, as a property test's seed found.
  expect(sanitizeMarkdown('<https://evil.test|Sextant report> <javascript:alert(1)| >')).toBe(
    'https[:]//evil[.]test Sextant report javascript:alert(1)  ',
  )
  expect(sanitizeMarkdown('Go to www.evil.test or WWW.evil.test/x, ftp://1.2.3.4/y, xhttps://evil.test')).toBe(
    'Go to www[.]evil.test or WWW[.]evil.test/x, ftp[:]//1[.]2[.]3[.]4/y, xhttps[:]//evil[.]test',
  )
  expect(sanitizeMarkdown(SOURCE, ALLOWED)).toBe('https[:]//source[.]example/a')
  expect(sanitizeMarkdown('<a href="//evil.test">x</a> <img\nsrc=//evil.test/p> <a/href=x> <topic> 1<2')).toBe(
    '< a href="//evil.test">x</a> < img\nsrc=//evil.test/p> < a/href=x> <topic> 1<2',
  )
})

test('plain prose, citations and formatting are left as they are; bidi controls go', () => {
  const prose =
    '## Findings\n- Packs cost **60 dollars** per kWh [1][2], e.g. in Node.js 3.5.\n- *Cells* [1, 2]: `code`'
  expect(sanitizeMarkdown(prose)).toBe(prose)
  expect(sanitizeMarkdown('abc\u202Efdp.exe\u202C [1]\u2066x\u2069\u200F')).toBe('abcfdp.exe [1]x')
})

// Fragments that make links, half-links and the things around them, so random texts are hostile.
const fragment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('[', ']', '(', ')', '](', ']:', '<', '>', '!', '\\', ' ', '\n', '"', "'") },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'https://',
      'http://evil.test',
      'https://evil.test/phish',
      'ftp://',
      'www.',
      'WWW.evil.test',
      'evil.test',
      '.',
      ':',
      '//',
      '@',
      'a@evil.test',
      'mailto:',
      'javascript:alert(1)',
      '<https://evil.test>',
      '<a href="//evil.test">',
      '<img src=',
      '[1]',
      '`',
      '*',
      '\u202E',
      '\uE002',
      '\uE0030\uE003',
    ),
  },
  { weight: 2, arbitrary: fc.constantFrom(...ALLOWED) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '[label',
      '![',
      '](https://evil.test/phish)',
      `](${SOURCE})`,
      `](${OTHER_SOURCE} "title")`,
      '](//evil.test)',
      ']: https://evil.test\n',
      '\n[x]: ',
      '\n- [',
      '\n> ',
    ),
  },
  { weight: 3, arbitrary: fc.string({ maxLength: 6 }) },
)
const hostileText = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''))

test('property: no link to a URL that is not allowed survives, and sanitizing is idempotent', () => {
  fc.assert(
    fc.property(hostileText, (text) => {
      const once = sanitizeMarkdown(text, ALLOWED)
      expect(unexpectedTargets(once, ALLOWED), JSON.stringify({ text, once })).toEqual([])
      expect(sanitizeMarkdown(once, ALLOWED), JSON.stringify({ text, once })).toBe(once)
      expect(once).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/)
    }),
    { numRuns: Number(process.env.FUZZ_RUNS ?? 2000) },
  )
}, 120_000)

test('property: text with no link syntax at all comes back unchanged', () => {
  const plain = fc.string({ unit: fc.constantFrom(...'abc XYZ 123,;*_`#-\n'.split('')), maxLength: 80 })
  fc.assert(
    fc.property(plain, (text) => {
      expect(sanitizeMarkdown(text)).toBe(text)
    }),
  )
})
