import { expect, test } from 'vitest'
import { lookup, normalizeText } from '#bench/quality/registry.ts'
import { createRng } from '#bench/quality/rng.ts'
import {
  emptyLog,
  misstate,
  parseJudgePrompt,
  type Sloppiness,
  sloppyFindings,
  sloppyPairs,
  sloppyVerdicts,
} from '#bench/quality/sloppy-model.ts'
import { generateWeb } from '#bench/quality/web.ts'
import { extractStatements, unsupportedFigures } from '#server/claims/figures.ts'
import { judgeMessages, pairMessages } from '#server/providers/llm/judge.ts'

const web = generateWeb({ seed: 1, factsPerTopic: 20 })
const rngFor = (...parts: Array<string | number>) => createRng('test', ...parts)
const careful: Sloppiness = { paraphrase: 0, wrongSource: 0, inventedQuote: 0, misstatedFigure: 0, judgeRandom: 0 }
const pages = web.topics[0]?.epochs[1]?.pages.slice(0, 4) ?? []
/** A synthesis prompt as server/providers/llm/openai.ts writes it. */
const prompt = [
  'Topic: grid batteries',
  'Sources:',
  ...pages.flatMap((page, index) => ['', `[${index + 1}] ${page.title} (undated) ${page.url}`, page.text]),
].join('\n')

test('a careful model reports every fact on the pages once, quoting the sentence and citing every page with it', () => {
  const findings = sloppyFindings(prompt, web, careful, rngFor, emptyLog())
  const sentences = new Set(pages.flatMap((page) => page.statements.map((statement) => statement.text)))
  expect(new Set(findings.map((finding) => finding.quote))).toEqual(sentences)
  for (const finding of findings) {
    expect(finding.text).toBe(finding.quote)
    const holders = pages.flatMap((page, index) => (page.text.includes(finding.quote) ? [index + 1] : []))
    expect(finding.sourceIds).toEqual(holders)
  }
})

test('a sloppy model paraphrases the same version, invents quotes found on no page, and cites the wrong page', () => {
  const log = emptyLog()
  const sloppy = { ...careful, paraphrase: 1, inventedQuote: 1, wrongSource: 1 }
  const findings = sloppyFindings(prompt, web, sloppy, rngFor, log)
  const onPages = normalizeText(pages.map((page) => page.text).join('\n'))
  const faithful = sloppyFindings(prompt, web, careful, rngFor, emptyLog())
  findings.forEach((finding, index) => {
    const truth = lookup(web.registry, faithful[index]?.quote as string)
    expect(lookup(web.registry, finding.text)).toEqual(truth)
    expect(finding.text).not.toBe(faithful[index]?.quote)
    expect(onPages.includes(normalizeText(finding.quote).replace(/\.$/, ''))).toBe(false)
    expect(finding.sourceIds.some((id) => faithful[index]?.sourceIds.includes(id))).toBe(false)
  })
  expect(log).toMatchObject({ claims: findings.length, paraphrased: findings.length, invented: findings.length })
})

test('a misstated figure is one the quote does not state', () => {
  for (const text of [
    'Cells cost $80/kWh.',
    'The plant employs 1,460 workers.',
    'Yields reached 62.5%.',
    'Its R290 model reaches a COP of 4.7.',
  ]) {
    const wrong = misstate(text)
    expect(wrong).not.toBe(text)
    expect(unsupportedFigures(extractStatements(wrong), extractStatements(text))).not.toEqual([])
  }
  expect(misstate('Cells cost $80/kWh.')).toBe('Cells cost $88/kWh.')
  expect(misstate('Its R290 model reaches a COP of 4.7.')).toBe('Its R290 model reaches a COP of 5.2.')
})

/** A figure, a reversal and another figure of the web, and a wording of one of their versions. */
const fact = [...web.facts.values()].find((candidate) => candidate.kind === 'figure')
const flip = [...web.facts.values()].find((candidate) => candidate.kind === 'polarity')
const other = [...web.facts.values()].find((candidate) => candidate !== fact && candidate.kind === 'figure')
const say = (key: typeof fact, version: number, wording = 0) => ({
  text: key?.versions[version]?.wordings[wording] as string,
  quote: '',
})

test("the judge reads the engine's own judge prompt and answers as a careful reader would", () => {
  // Memory once; each claim may match any of it, whatever it is named closest to.
  const memory = [say(other, 0), say(fact, 0), say(flip, 0), say(fact, 0, 2)]
  const items = [
    { claim: say(fact, 1, 1), closest: [0, 1] },
    { claim: say(flip, 1), closest: [2] },
    { claim: say(fact, 0, 1), closest: [3] },
    { claim: say(other, 1), closest: [] },
  ]
  const text = judgeMessages({ memory, items }, 'grid batteries')
    .map((message) => message.content)
    .join('\n')
  expect(parseJudgePrompt(text).map((item) => [item.candidates.length, item.closest])).toEqual([
    [4, [0, 1]],
    [4, [2]],
    [4, [3]],
    [4, []],
  ])
  expect(sloppyVerdicts(text, web, careful, rngFor, emptyLog())).toEqual([
    { claim: 0, verdict: 'updated', match: 1 },
    { claim: 1, verdict: 'contradicted', match: 2 },
    // The wording named closest, of the two memory holds.
    { claim: 2, verdict: 'confirmed', match: 3 },
    // The earlier version of its fact, found beyond what it was named closest to.
    { claim: 3, verdict: 'updated', match: 0 },
  ])
  const random = sloppyVerdicts(text, web, { ...careful, judgeRandom: 1 }, rngFor, emptyLog())
  for (const verdict of random) expect(verdict.match === null).toBe(verdict.verdict === 'new')
})

test("the second reading reads the engine's pair prompt: each pair by the truth, and at random at the judge's rate, drawn apart", () => {
  const pairs = [
    { claim: say(fact, 0, 1), known: say(fact, 0, 2) },
    { claim: say(fact, 1), known: say(fact, 0) },
    { claim: say(flip, 1), known: say(flip, 0) },
    { claim: say(other, 1), known: say(fact, 0) },
  ]
  const text = pairMessages({ pairs }, 'grid batteries')
    .map((message) => message.content)
    .join('\n')
  const log = emptyLog()
  expect(sloppyPairs(text, web, careful, rngFor, log)).toEqual([
    { pair: 0, verdict: 'confirmed' },
    { pair: 1, verdict: 'updated' },
    { pair: 2, verdict: 'contradicted' },
    { pair: 3, verdict: 'new' },
  ])
  expect(log).toMatchObject({ judged: 4, judgedAtRandom: 0 })
  // At random every time: answers drawn for each pair, not the careful ones.
  const atRandom = emptyLog()
  const random = Array.from({ length: 20 }, (_, round) =>
    sloppyPairs(text, web, { ...careful, judgeRandom: 1 }, (...parts) => createRng('round', round, ...parts), atRandom),
  )
  expect(atRandom).toMatchObject({ judged: 80, judgedAtRandom: 80 })
  expect(new Set(random.flatMap((answers) => answers.map((answer) => answer.verdict))).size).toBe(4)
})
