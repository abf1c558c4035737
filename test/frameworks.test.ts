// The framework catalogue: well-formed data, the public endpoints, and a report section for every
// section a framework promises, whether a model or the extractive synthesizer wrote the synthesis.
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { SourceForSynthesis, Synthesis } from '#server/providers/types.ts'
import { createExtractiveModel } from '#server/research/extractive.ts'
import { buildReport } from '#server/research/report.ts'
import { NO_EVIDENCE } from '#server/research/report-render.ts'
import { allShown } from '#server/research/report-types.ts'
import { BriefSchema } from '#server/vocabulary/brief.ts'
import { findFramework, frameworks, listFrameworks } from '#server/vocabulary/frameworks/index.ts'
import { FRAMEWORK_CATEGORIES, type Framework, FrameworkSchema } from '#server/vocabulary/frameworks/types.ts'
import { startTestApp, type TestApp } from '#test/support/app.ts'

const SPEC_IDS = [
  'porter-five-forces',
  'rice',
  'jobs-to-be-done',
  'ansoff-matrix',
  'kano-model',
  'value-chain',
  'blue-ocean',
  'pestle',
]

let app: TestApp
beforeAll(async () => {
  app = await startTestApp()
})
afterAll(() => app.stop())

function framework(id: string): Framework {
  const found = findFramework(id)
  if (!found) throw new Error(`no framework ${id}`)
  return found
}

function reportFor(lens: Framework, synthesis: Synthesis, sources: SourceForSynthesis[]) {
  const claims = synthesis.findings.map((finding) => ({ ...finding, class: 'new' as const }))
  return buildReport({
    synthesis,
    claims,
    integrity: allShown(claims.length),
    sources,
    baseline: true,
    since: null,
    reportStyle: 'framework',
    framework: lens,
    topic: 'heat pumps',
    generatedWith: { synthesis: 'test', synthesisKind: 'model', search: 'test', plan: 'fallback' },
    usage: { inputTokens: 0, outputTokens: 0, searchCalls: 0, costDollars: null },
  })
}

/** Each section's body in a framework report, by heading. */
function sectionBodies(summary: string): Map<string, string> {
  const bodies = new Map<string, string>()
  for (const block of summary.split(/\n\n(?=#{2,3} )/)) {
    const [heading = '', ...body] = block.split('\n')
    if (heading.startsWith('### ')) bodies.set(heading.slice(4), body.join('\n').trim())
  }
  return bodies
}

test('every framework passes FrameworkSchema', () => {
  for (const entry of frameworks) {
    const result = FrameworkSchema.safeParse(entry)
    expect(result.error?.issues ?? [], entry.id).toEqual([])
  }
})

test('ids are unique and kebab-case, there are at least 55, and the spec ids are among them', () => {
  const ids = frameworks.map((entry) => entry.id)
  expect(ids.length).toBeGreaterThanOrEqual(55)
  expect(new Set(ids).size).toBe(ids.length)
  for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  expect(ids).toEqual(expect.arrayContaining(SPEC_IDS))
  expect(new Set(frameworks.map((entry) => entry.name.toLowerCase())).size).toBe(ids.length)
})

test('every category has frameworks', () => {
  const used = new Set(frameworks.map((entry) => entry.category))
  expect([...used].sort()).toEqual([...FRAMEWORK_CATEGORIES].sort())
})

test('listFrameworks narrows by category and by every word of q, case-insensitively', () => {
  const risk = listFrameworks({ category: 'risk' }).frameworks
  expect(risk.length).toBeGreaterThan(0)
  expect(risk.every((entry) => entry.category === 'risk')).toBe(true)
  expect(listFrameworks({ q: 'PORTER' }).frameworks.map((entry) => entry.id)).toEqual(
    expect.arrayContaining(['porter-five-forces', 'porters-diamond', 'porters-generic-strategies']),
  )
  expect(listFrameworks({ q: 'porter rivalry' }).frameworks.map((entry) => entry.id)).not.toContain(
    'porters-generic-strategies',
  )
  expect(listFrameworks({ q: 'no framework mentions zyzzyva' }).frameworks).toEqual([])
  expect(listFrameworks().frameworks).toHaveLength(frameworks.length)
})

test('GET /api/frameworks lists the catalogue without a key, without query hints', async () => {
  const response = await app.fetch('/api/frameworks')
  expect(response.status).toBe(200)
  const body = await response.json()
  expect(body.categories).toEqual([...FRAMEWORK_CATEGORIES])
  expect(body.frameworks).toHaveLength(frameworks.length)
  const pestle = framework('pestle')
  expect(body.frameworks.find((entry: { id: string }) => entry.id === 'pestle')).toEqual({
    id: 'pestle',
    name: pestle.name,
    category: 'market',
    description: pestle.description,
    whenToUse: pestle.whenToUse,
    questions: pestle.questions,
    sections: pestle.sections,
  })
})

test('GET /api/frameworks filters by category and q', async () => {
  const byCategory = await (await app.fetch('/api/frameworks?category=finance')).json()
  expect(byCategory.frameworks.map((entry: { id: string }) => entry.id)).toEqual(
    frameworks.filter((entry) => entry.category === 'finance').map((entry) => entry.id),
  )
  const byText = await (await app.fetch('/api/frameworks?q=Retention')).json()
  expect(byText.frameworks.map((entry: { id: string }) => entry.id)).toContain('cohort-retention')
  const both = await (await app.fetch('/api/frameworks?category=market&q=porter')).json()
  expect(both.frameworks.map((entry: { id: string }) => entry.id)).toEqual(['porters-diamond'])
})

test('GET /api/frameworks refuses an unknown category or parameter with a 400 problem', async () => {
  const unknown = await app.fetch('/api/frameworks?category=astrology')
  expect(unknown.status).toBe(400)
  expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  const problem = await unknown.json()
  expect(problem.errors.map((error: { path: string }) => error.path)).toEqual(['category'])
  expect((await app.fetch('/api/frameworks?kind=risk')).status).toBe(400)
})

test('GET /api/frameworks/{id} returns the framework with its query hints; an unknown id is a 404', async () => {
  const found = await app.fetch('/api/frameworks/wardley-map')
  expect(found.status).toBe(200)
  expect(await found.json()).toEqual(framework('wardley-map'))

  const missing = await app.fetch('/api/frameworks/swot-analysis')
  expect(missing.status).toBe(404)
  expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  expect((await missing.json()).detail).toMatch(/swot-analysis.*GET \/api\/frameworks/)
})

test('BriefSchema accepts every framework id and points unknown ones at GET /api/frameworks', () => {
  for (const entry of frameworks) {
    expect(BriefSchema.safeParse({ topic: 'heat pumps', frameworkId: entry.id }).success, entry.id).toBe(true)
  }
  const unknown = BriefSchema.safeParse({ topic: 'heat pumps', frameworkId: 'swot-analysis' })
  expect(unknown.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
    ['frameworkId', expect.stringContaining('GET /api/frameworks')],
  ])
  const missing = BriefSchema.safeParse({ topic: 'heat pumps', reportStyle: 'framework' })
  expect(missing.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
    ['frameworkId', expect.stringContaining('GET /api/frameworks')],
  ])
})

test('model path: every framework report has each of its sections as a heading, with the body written for it', () => {
  const sources = [{ id: 1, url: 'https://example.com/1', title: 'One', publishedDate: null, text: 'Text.' }]
  for (const lens of frameworks) {
    const synthesis: Synthesis = {
      headline: `Heat pumps through ${lens.name}`,
      findings: [{ text: 'Heat pump sales rose.', quote: 'Heat pump sales rose.', sourceIds: [1] }],
      sections: lens.sections.map((title, index) => ({ title, body: `Evidence ${index} on ${title} [1].` })),
      gaps: [],
    }
    const { summary } = reportFor(lens, synthesis, sources)
    expect(summary.startsWith(`## ${lens.name}\n`), lens.id).toBe(true)
    const bodies = sectionBodies(summary)
    expect([...bodies.keys()], lens.id).toEqual(lens.sections)
    lens.sections.forEach((title, index) => {
      expect(bodies.get(title), `${lens.id}: ${title}`).toBe(`Evidence ${index} on ${title} [1].`)
    })
  }
})

/**
 * A sentence about a section title. The wordings vary so that no two read as the same finding to the
 * dedupe, and use no word a section title uses, so each sentence matches its own section only.
 */
// Each about heat pumps, the brief's topic: the extractive path quotes only pages about the topic.
function sentenceAbout(title: string, index: number): string {
  const year = 2020 + index
  const sentences = [
    `Analysts covering heat pumps described ${title} as decisive in ${year}.`,
    `A survey of heat pump installers in ${year} found ${title} mattered to homeowners.`,
    `Officials said in ${year} that ${title} would weigh on heat pump installers everywhere.`,
    `Heat pump manufacturers reported that ${title} changed their outlook for ${year}.`,
  ]
  return sentences[index % sentences.length] as string
}

// Every framework, not a sample: it is fast, and it catches a section title whose words are all in another's.
test('extractive path: every section heading appears with a sentence about it', async () => {
  const model = createExtractiveModel()
  for (const lens of frameworks) {
    const id = lens.id
    // One source per section, plus one about nothing in particular.
    const sources: SourceForSynthesis[] = [
      ...lens.sections.map((title, index) => ({
        id: index + 1,
        url: `https://example.com/${id}/${index + 1}`,
        title: `Report ${index + 1}`,
        publishedDate: '2026-01-15',
        text: sentenceAbout(title.toLowerCase(), index),
      })),
      {
        id: lens.sections.length + 1,
        url: `https://example.com/${id}/weather`,
        title: 'Weather',
        publishedDate: null,
        text: 'Heat pumps kept homes warm through a mild winter in the north.',
      },
    ]
    const { synthesis } = await model.synthesize(
      { topic: 'heat pumps', focus: [], reportStyle: 'framework', framework: lens, sources, knownFacts: [] },
      { signal: new AbortController().signal },
    )
    const { summary, sources: cited } = reportFor(lens, synthesis, sources)
    const bodies = sectionBodies(summary)
    expect([...bodies.keys()].slice(0, lens.sections.length), id).toEqual(lens.sections)
    for (const title of lens.sections) {
      const body = bodies.get(title) ?? ''
      expect(body, `${id}: ${title}`).not.toBe(NO_EVIDENCE)
      expect(body.toLowerCase(), `${id}: ${title}`).toContain(title.toLowerCase())
    }
    expect(cited.length, id).toBeGreaterThanOrEqual(lens.sections.length)
  }
})
