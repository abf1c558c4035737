import { expect, test } from 'vitest'
import { splitText } from '#server/notify/split-text.ts'

test('text within the limit is one part', () => {
  expect(splitText('one\n\ntwo', 100)).toEqual(['one\n\ntwo'])
})

test('paragraphs are packed into parts of at most the limit, in order', () => {
  const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} ${'x'.repeat(40)}`)
  const parts = splitText(paragraphs.join('\n\n'), 120)
  for (const part of parts) expect(part.length).toBeLessThanOrEqual(120)
  expect(parts.length).toBeGreaterThan(3)
  expect(parts.join('\n\n')).toBe(paragraphs.join('\n\n'))
})

test('a long paragraph splits between lines, a long line between words, never inside a link', () => {
  const list = Array.from({ length: 30 }, (_, i) => `• finding ${i} <https://example.com/${i}|source ${i}>`).join('\n')
  const parts = splitText(list, 200)
  for (const part of parts) {
    expect(part.length).toBeLessThanOrEqual(200)
    expect(part.startsWith('•')).toBe(true)
  }
  expect(parts.join('\n')).toBe(list)

  const line = Array.from(
    { length: 40 },
    (_, i) => `word${i} [label ${i}](https://example.com/${i}) <https://x.example/${i}|a b c>`,
  )
  const pieces = splitText(line.join(' '), 150)
  for (const piece of pieces) {
    expect(piece.length).toBeLessThanOrEqual(150)
    expect(piece.split('<').length).toBe(piece.split('>').length) // every Slack link whole
    expect(piece.split('](').length - 1).toBe(piece.split('[label').length - 1) // every markdown link whole
  }
  expect(pieces.join(' ').replace(/\s+/g, ' ')).toBe(line.join(' '))
})

test('a word longer than the limit is cut', () => {
  expect(splitText('a'.repeat(25), 10)).toEqual(['a'.repeat(10), 'a'.repeat(10), 'a'.repeat(5)])
})
