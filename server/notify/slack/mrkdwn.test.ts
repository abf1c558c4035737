import { expect, test } from 'vitest'
import { escapeMrkdwn, markdownToMrkdwn, slackLink } from '#server/notify/slack/mrkdwn.ts'

test('headings become bold lines, bullets become •, emphasis and links become mrkdwn', () => {
  const markdown = [
    '## Sodium-ion **update**',
    '### Key findings',
    '- Prices **fell** to *60 dollars* per kWh [1].',
    '* Read [the survey](https://example.com/a_b?x=1&y=2) ~~soon~~ now.',
    '> quoted',
    // Without the blank line, CommonMark reads this line as the quote's own (a lazy continuation).
    '',
    'Plain __strong__ text.',
  ].join('\n')
  expect(markdownToMrkdwn(markdown, ['https://example.com/one', 'https://example.com/a_b?x=1&y=2'])).toBe(
    [
      '*Sodium-ion update*',
      '*Key findings*',
      '• Prices *fell* to _60 dollars_ per kWh [<https://example.com/one|1>].',
      '• Read <https://example.com/a_b?x=1&y=2|the survey> ~soon~ now.',
      '> quoted',
      '',
      'Plain *strong* text.',
    ].join('\n'),
  )
})

test('&, < and > are escaped, in code too, and code keeps its asterisks', () => {
  expect(markdownToMrkdwn('R&D <b> costs `a**b** < c` stay')).toBe('R&amp;D &lt;b&gt; costs `a**b** &lt; c` stay')
  expect(markdownToMrkdwn('```\n**not bold** <x>\n```')).toBe('```\n**not bold** &lt;x&gt;\n```')
  expect(escapeMrkdwn('a & b')).toBe('a &amp; b')
})

test('a link label cannot break out of the link', () => {
  expect(slackLink('https://example.com/a|b>c', 'Q&A | <tips>')).toBe(
    '<https://example.com/a%7Cb%3Ec|Q&amp;A ¦ &lt;tips&gt;>',
  )
})

test('a lone asterisk or a multiplication is left alone', () => {
  expect(markdownToMrkdwn('2 * 3 = 6 and 4*5')).toBe('2 * 3 = 6 and 4*5')
})
