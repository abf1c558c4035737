import { expect, test } from 'vitest'
import { createOracleModel, oracleFindings } from '#bench/quality/oracle-model.ts'
import { buildRegistry } from '#bench/quality/registry.ts'
import { emptyLog } from '#bench/quality/sloppy-model.ts'
import type { Fact } from '#bench/quality/web.ts'
import { judgeMessages } from '#server/providers/llm/judge.ts'
import type { StubRequest } from '#test/support/stub-openai.ts'

const grant: Fact = {
  key: 'tram/grant',
  kind: 'polarity',
  versions: [
    { label: 'v1', positive: true, wordings: ['Riverton council approved the $300 million grant on Tuesday.'] },
    { label: 'v2', positive: false, wordings: ['“We have voted the $300 million grant down,” the mayor said.'] },
  ],
}
const riders: Fact = {
  key: 'tram/riders',
  kind: 'figure',
  versions: [{ label: 'v1', positive: true, wordings: ['The line carries 21,000 riders a day.'] }],
}
const facts = new Map([grant, riders].map((fact) => [fact.key, fact]))
const knowledge = { facts, registry: buildRegistry(facts.values(), []) }

/** A synthesis prompt as server/providers/llm/openai.ts writes it. */
function synthesisPrompt(pages: string[]): string {
  return [
    'Topic: Riverton tram',
    'Sources:',
    ...pages.flatMap((text, index) => [
      '',
      `[${index + 1}] Page ${index + 1} (undated) https://post.example/${index}`,
      text,
    ]),
  ].join('\n')
}

test('the oracle claims every fact sentence of its passages word for word, citing every source that holds it', () => {
  const prompt = synthesisPrompt([
    'Cookies help us. The line carries 21,000 riders a day. Riverton council approved the $300 million grant on Tuesday.',
    'A café opened. Riverton council approved the $300 million grant on Tuesday.',
    'The weather was fine.',
  ])
  expect(oracleFindings(prompt, knowledge)).toEqual([
    {
      text: grant.versions[0]?.wordings[0],
      quote: grant.versions[0]?.wordings[0],
      sourceIds: [1, 2],
      version: 'tram/grant@0',
    },
    {
      text: riders.versions[0]?.wordings[0],
      quote: riders.versions[0]?.wordings[0],
      sourceIds: [1],
      version: 'tram/riders@0',
    },
  ])
})

test("the oracle's judge answers by the truth: a reversal is contradicted, never at random", () => {
  const model = createOracleModel({ knowledge: () => knowledge, log: emptyLog() })
  const say = (fact: Fact, version: number) => ({ text: fact.versions[version]?.wordings[0] as string, quote: '' })
  const text = judgeMessages(
    {
      memory: [say(riders, 0), say(grant, 0)],
      items: [
        { claim: say(grant, 1), closest: [0, 1] },
        { claim: say(riders, 0), closest: [0] },
      ],
    },
    'Riverton tram',
  )
    .map((message) => message.content)
    .join('\n')
  const reply = model({ kind: 'judge', text } as StubRequest)
  expect(reply).toMatchObject({
    content: {
      verdicts: [
        { claim: 0, verdict: 'contradicted', match: 1 },
        { claim: 1, verdict: 'confirmed', match: 0 },
      ],
    },
  })
})
