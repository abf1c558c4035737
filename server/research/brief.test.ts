import { expect, test } from 'vitest'
import { BriefSchema, displayBrief } from '#server/research/brief.ts'

test('bidi controls are stripped from the topic, objective and focus as a brief is parsed', () => {
  const brief = BriefSchema.parse({
    topic: ' Tidal \u202Epower\u202C ',
    objective: 'Who \u2067builds\u2069 them',
    focus: 'cost,\u200F output\u061C',
  })
  expect(brief).toMatchObject({ topic: 'Tidal power', objective: 'Who builds them', focus: 'cost, output' })
  // Nothing left once they go: the same refusal as an empty topic.
  const empty = BriefSchema.safeParse({ topic: '\u202E\u202C', objective: '\u200E' })
  expect(empty.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
    ['topic', 'topic is required'],
    ['objective', 'Too small: expected string to have >=1 characters'],
  ])
})

test('a brief stored before that is shown without them', () => {
  const stored = { ...BriefSchema.parse({ topic: 'x' }), topic: 'Old \u202Etides', objective: 'a\u2066b' }
  expect(displayBrief(stored)).toMatchObject({ topic: 'Old tides', objective: 'ab' })
  expect(displayBrief(stored)).not.toHaveProperty('focus')
})
