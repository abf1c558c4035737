import { expect, test } from 'vitest'
import { synthesisMessages } from '#server/providers/llm/prompts.ts'

test('the synthesis prompt asks for findings on the topic only, citing the listed ids', () => {
  const [system, user] = synthesisMessages({
    topic: 'heat pumps in cold climates',
    focus: [],
    reportStyle: 'executive',
    sources: [{ id: 1, url: 'https://example.com/1', title: 'One', publishedDate: null, text: 'Heat pumps work.' }],
    knownFacts: [],
  })
  expect(system?.role).toBe('system')
  expect(system?.content).toContain('using only these ids: 1.')
  expect(system?.content).toContain(
    'Report only what bears on the topic: a source, or a part of one, about something else gives no finding.',
  )
  expect(user?.content).toContain('Topic: heat pumps in cold climates')
})
