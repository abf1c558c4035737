import { expect, test } from 'vitest'
import { displayTopic, topicKey } from '#server/text/topic-key.ts'

test('case, surrounding space, inner spacing and full-width forms do not make a new topic', () => {
  const key = topicKey('ai agents')
  expect(key).toBe('ai agents')
  expect(topicKey('  AI Agents ')).toBe(key)
  expect(topicKey('AI\t\n  Agents')).toBe(key)
  expect(topicKey('ＡＩ　Ａｇｅｎｔｓ')).toBe(key)
  expect(topicKey('AI\u00a0Agents')).toBe(key)
  expect(topicKey('AI\u3000Agents')).toBe(key)
})

test('different words in the same script stay different topics', () => {
  expect(topicKey('東京の電池')).not.toBe(topicKey('大阪の電池'))
  expect(topicKey('ai agents')).not.toBe(topicKey('ai agent'))
})

test('CJK text keeps its characters, with half-width katakana widened', () => {
  expect(topicKey('　東京の電池　')).toBe('東京の電池')
  expect(topicKey('ﾃｽﾄ')).toBe(topicKey('テスト'))
})

test('Cyrillic is case-folded and kept apart from look-alike Latin', () => {
  expect(topicKey('МОСКВА Новости')).toBe(topicKey('москва новости'))
  // Cyrillic "а" and Latin "a" look alike but are different letters.
  expect(topicKey('аpple')).not.toBe(topicKey('apple'))
})

test('Greek sigma in all its forms is one key: ΟΔΟΣ, οδος and οδοσ', () => {
  expect(topicKey('ΟΔΟΣ')).toBe('οδοσ')
  expect(topicKey('οδος')).toBe('οδοσ')
  expect(topicKey('οδοσ')).toBe('οδοσ')
  expect(topicKey('ΟΔΟΣ ΚΑΙ ΣΠΙΤΙ')).toBe(topicKey('οδος και σπιτι'))
})

test('a precomposed accent and a combining accent are one key', () => {
  expect(topicKey('caf\u00e9')).toBe(topicKey('cafe\u0301'))
  expect(topicKey('CAFE\u0301')).toBe(topicKey('café'))
  expect(topicKey('café')).not.toBe(topicKey('cafe'))
})

test('emoji are kept as they are and still distinguish topics', () => {
  expect(topicKey(' 🚀 Launches ')).toBe('🚀 launches')
  expect(topicKey('🚀 launches')).not.toBe(topicKey('🛸 launches'))
})

test('the key is stable: folding a key again changes nothing', () => {
  for (const topic of ['  AI Agents ', 'ＡＩ　Ａｇｅｎｔｓ', 'ΟΔΟΣ', 'cafe\u0301', 'ǅungla', '㎒ radios']) {
    expect(topicKey(topicKey(topic))).toBe(topicKey(topic))
  }
})

test('the display form keeps case and width but tidies spacing and composition', () => {
  expect(displayTopic('  AI   Agents\n')).toBe('AI Agents')
  expect(displayTopic('ＡＩ　Ａｇｅｎｔｓ')).toBe('ＡＩ Ａｇｅｎｔｓ')
  expect(displayTopic('Cafe\u0301 ΟΔΟΣ')).toBe('Caf\u00e9 ΟΔΟΣ')
})
