import { expect, test } from 'vitest'
import type { SourceForSynthesis, SynthesisInput } from '#server/providers/types.ts'
import { createExtractiveModel } from '#server/research/extractive.ts'
import { findFramework } from '#server/vocabulary/frameworks/index.ts'

function source(id: number, text: string): SourceForSynthesis {
  return { id, url: `https://example.com/${id}`, title: `Source ${id}`, publishedDate: null, text }
}

const batterySources = [
  source(
    1,
    'Welcome to our site. Solid-state batteries reached 500 Wh/kg in laboratory tests in March 2026.[3] ' +
      'The weather was pleasant at the conference venue. Lunch was served at noon.',
  ),
  source(
    2,
    'Toyota plans to start solid-state battery production in 2027 at a plant in Aichi. ' +
      'The company also sponsors a football team. Its logo was redesigned.',
  ),
  source(
    3,
    'Recycling solid-state batteries remains costly because the electrolytes are hard to separate. ' +
      'Our newsletter comes out every Friday.',
  ),
]

function synthesisInput(overrides: Partial<SynthesisInput> = {}): SynthesisInput {
  return {
    topic: 'solid-state batteries',
    focus: [],
    reportStyle: 'executive',
    sources: batterySources,
    knownFacts: [],
    ...overrides,
  }
}

async function synthesize(input: SynthesisInput) {
  const model = createExtractiveModel()
  return model.synthesize(input, { signal: new AbortController().signal })
}

test('it names itself as extractive and costs no tokens', async () => {
  const model = createExtractiveModel()
  expect(model.kind).toBe('extractive')
  expect(model.name).toBe('extractive (no language model)')
  const { usage } = await synthesize(synthesisInput())
  expect(usage).toEqual({ inputTokens: 0, outputTokens: 0 })
})

test('plan() returns the fallback plan', async () => {
  const { plan, usage } = await createExtractiveModel().plan(
    {
      topic: 'solid-state batteries',
      focus: ['cost'],
      depth: 'quick',
      timeframe: 'the last 7 days',
      knownFacts: [],
      maxQueries: 2,
    },
    { signal: new AbortController().signal },
  )
  expect(plan.queries).toEqual(['solid-state batteries', 'solid-state batteries cost'])
  expect(usage).toEqual({ inputTokens: 0, outputTokens: 0 })
})

test('findings are the relevant sentences, each citing the source it came from, without page footnotes', async () => {
  const { synthesis } = await synthesize(synthesisInput())
  const texts = synthesis.findings.map((finding) => finding.text)
  expect(texts).toContain('Solid-state batteries reached 500 Wh/kg in laboratory tests in March 2026.')
  expect(synthesis.findings).toContainEqual({
    text: 'Toyota plans to start solid-state battery production in 2027 at a plant in Aichi.',
    quote: 'Toyota plans to start solid-state battery production in 2027 at a plant in Aichi.',
    sourceIds: [2],
  })
  expect(synthesis.findings).toContainEqual({
    text: 'Recycling solid-state batteries remains costly because the electrolytes are hard to separate.',
    quote: 'Recycling solid-state batteries remains costly because the electrolytes are hard to separate.',
    sourceIds: [3],
  })
  for (const text of texts) expect(text).not.toMatch(/weather|Lunch|football|newsletter|logo/)
  // A number and a date make the lab result the strongest sentence, so it is listed first.
  expect(texts[0]).toBe('Solid-state batteries reached 500 Wh/kg in laboratory tests in March 2026.')
})

test('a sentence memory already holds, even reworded, is not reported again', async () => {
  const { synthesis } = await synthesize(
    synthesisInput({ knownFacts: ['In March 2026, solid-state batteries reached 500 Wh/kg in laboratory tests'] }),
  )
  expect(synthesis.findings.map((finding) => finding.text).join(' ')).not.toContain('500 Wh/kg')
  expect(synthesis.findings.length).toBeGreaterThan(0)
})

test('a sentence two sources share is one finding citing both', async () => {
  const { synthesis } = await synthesize(
    synthesisInput({
      sources: [
        source(1, 'Solid-state batteries reached 500 Wh/kg in laboratory tests in 2026.'),
        source(2, 'In 2026, solid-state batteries reached 500 Wh/kg in laboratory tests, the lab said.'),
      ],
    }),
  )
  expect(synthesis.findings).toHaveLength(1)
  expect(synthesis.findings[0]?.sourceIds).toEqual([1, 2])
})

test('implications name content words that recur across sources, say they are extracted, or are left out', async () => {
  const { synthesis } = await synthesize(
    synthesisInput({
      sources: [
        source(1, 'Solid-state batteries now need sulfide electrolytes, which cost 40% more to make in 2026.'),
        source(2, 'Two makers of solid-state batteries now say sulfide supply is short this year.'),
        source(3, 'One year ago, solid-state batteries were still two years from mass production.'),
      ],
    }),
  )
  expect(synthesis.implications).toMatch(/not reasoned conclusions/)
  expect(synthesis.implications).toContain('- "sulfide": 2 of the 3 findings [1][2]')
  // Function words, time words and numbers shared by every source are not themes; nor is the topic.
  expect(synthesis.implications).not.toMatch(/"(now|year|years|two|one|2026|solid|batteries)"/)

  // The three battery sources share no word beyond the topic: no filler section.
  const { synthesis: unrelated } = await synthesize(synthesisInput())
  expect(unrelated.findings).toHaveLength(3)
  expect(unrelated.implications).toBeUndefined()
})

test('a theme found in one source only is not a theme, however often it recurs there', async () => {
  const { synthesis } = await synthesize(
    synthesisInput({
      sources: [
        source(1, 'Solid-state batteries use sulfide electrolytes. Sulfide solid-state batteries need dry rooms.'),
        source(2, 'Toyota plans solid-state battery production in 2027 at a plant in Aichi.'),
      ],
    }),
  )
  expect(synthesis.findings.length).toBeGreaterThanOrEqual(3)
  expect(synthesis.implications).toBeUndefined()
})

test('framework sections get the sentences that match them, and the rest say there is no evidence', async () => {
  const framework = findFramework('porter-five-forces')
  const { synthesis } = await synthesize(
    synthesisInput({
      reportStyle: 'framework',
      framework,
      sources: [
        ...batterySources,
        source(4, 'Supplier power in solid-state batteries is high because few firms make sulfide electrolytes.'),
        source(5, 'Buyers of solid-state batteries, mostly carmakers, negotiate long contracts.'),
        source(6, 'Market power in solid-state batteries sits with a handful of patent holders.'),
      ],
    }),
  )
  const sections = new Map(synthesis.sections?.map((section) => [section.title, section.body]))
  expect([...sections.keys()]).toEqual(framework?.sections)
  expect(sections.get('Supplier power')).toBe(
    '- Supplier power in solid-state batteries is high because few firms make sulfide electrolytes. [4]',
  )
  expect(sections.get('Threat of substitutes')).toBe("No evidence in this run's sources.")
  expect(synthesis.gaps).toContain(
    `Nothing in this run's sources addressed "Threat of substitutes" (Porter's Five Forces).`,
  )
  // A section is a gap exactly when its body is empty, never one without the other.
  for (const [title, body] of sections) {
    expect(synthesis.gaps.some((gap) => gap.includes(`"${title}"`))).toBe(body === "No evidence in this run's sources.")
  }
})

test('a focus area no source covers is a gap; one that is covered gets a finding', async () => {
  const { synthesis } = await synthesize(synthesisInput({ focus: ['recycling', 'military use'] }))
  expect(synthesis.gaps).toEqual([`Nothing in this run's sources addressed "military use".`])
  expect(synthesis.findings.some((finding) => finding.text.startsWith('Recycling'))).toBe(true)
})

test('Chinese text without spaces is split into sentences and ranked without crashing', async () => {
  const { synthesis } = await synthesize(
    synthesisInput({
      topic: '固态电池',
      sources: [source(1, '固态电池的能量密度在2026年达到了每公斤500瓦时。今天天气很好。我们吃了午饭。')],
    }),
  )
  expect(synthesis.findings[0]).toEqual({
    text: '固态电池的能量密度在2026年达到了每公斤500瓦时。',
    quote: '固态电池的能量密度在2026年达到了每公斤500瓦时。',
    sourceIds: [1],
  })
})

test('the headline says what the report holds instead of repeating the first finding', async () => {
  const { synthesis } = await synthesize(synthesisInput())
  expect(synthesis.headline).toBe('Solid-state batteries: 3 findings extracted from 3 sources')

  const long = `固态电池${'的能量密度'.repeat(40)}。`
  const { synthesis: chinese } = await synthesize(synthesisInput({ topic: '固态电池', sources: [source(1, long)] }))
  expect(chinese.headline).toBe('固态电池: 1 finding extracted from 1 source')

  const topic = `iPhone supply chains ${'and their suppliers '.repeat(6)}`
  const { synthesis: longTopic } = await synthesize(
    synthesisInput({ topic, sources: [source(1, 'The iPhone supply chains moved to India in 2026.')] }),
  )
  expect(longTopic.headline).toBe(
    'iPhone supply chains and their suppliers and their…: 1 finding extracted from 1 source',
  )
})

test('no sources gives no findings and says so', async () => {
  const { synthesis } = await synthesize(synthesisInput({ sources: [] }))
  expect(synthesis.findings).toEqual([])
  expect(synthesis.headline).toBe('No new sources were read in this run')
})

// Shaped like corpus/sample: front matter, a `# Title`, paragraphs hard-wrapped at about 100 columns.
const installerShortage = `---

title: Installer shortage slows cold-climate heat pump adoption
url: https://corpus.local/heat-pumps/installer-training-push
published: 2026-11-20
---

# Installer shortage slows cold-climate heat pump adoption

Homeowners in cold regions wanting a heat pump now wait an average of nine weeks for an
installation, according to a survey of 300 heating contractors released on Thursday by the Northern
Trades Council. Demand has grown faster than the number of trained installers, and the council
estimates that 6,500 more will be needed over the next three years.

The skills gap is not only about numbers. The survey found that fewer than half of contractors
routinely calculate a home's heat loss room by room before choosing a unit, the step field studies
link most closely to low running costs.`

const winterPeak = `# Heat pumps now set the winter peak

On the coldest morning of last winter, a survey of smart meters found the average all-electric
heat pump home to draw an average of 2.9 kW, against 1.1 kW on an ordinary winter morning. Fleet
operators found the same pattern in electric vans, which lost range for the first twenty
minutes in the cold, when the pack first had to warm itself. Installers say the peak can be cut`

function heatPumpInput(sources: SourceForSynthesis[]): SynthesisInput {
  return synthesisInput({ topic: 'heat pumps in cold climates', sources })
}

test('hard-wrapped lines of a paragraph are joined, so a sentence is never split at a line break', async () => {
  const { synthesis } = await synthesize(heatPumpInput([source(1, installerShortage), source(2, winterPeak)]))
  const texts = synthesis.findings.map((finding) => finding.text)
  expect(texts).toContain(
    'Homeowners in cold regions wanting a heat pump now wait an average of nine weeks for an installation, ' +
      'according to a survey of 300 heating contractors released on Thursday by the Northern Trades Council.',
  )
  expect(texts).toContain(
    'On the coldest morning of last winter, a survey of smart meters found the average all-electric heat pump ' +
      'home to draw an average of 2.9 kW, against 1.1 kW on an ordinary winter morning.',
  )
  for (const text of texts) {
    expect(text).toMatch(/^[A-Z0-9"]/)
    expect(text).not.toContain('\n')
  }
  expect(texts).not.toContain(
    'heat pump home to draw an average of 2.9 kW, against 1.1 kW on an ordinary winter morning.',
  )
  expect(texts).not.toContain('minutes in the cold, when the pack first had to warm itself.')
})

test('the tail of a text cut mid-sentence, headings and front matter are never findings', async () => {
  // Cut as a quick run cuts each source: at a character limit, here mid-sentence.
  const cut = installerShortage.slice(0, installerShortage.indexOf('for an\ninstallation') + 'for an'.length)
  const { synthesis } = await synthesize(heatPumpInput([source(1, cut), source(2, winterPeak)]))
  const texts = synthesis.findings.map((finding) => finding.text)
  expect(texts.length).toBeGreaterThan(0)
  for (const text of texts) {
    expect(text).toMatch(/[.!?]$/)
    expect(text).not.toMatch(/Homeowners|Installers say|Installer shortage|title:|url:|published:|^#/)
  }
  expect(synthesis.findings.every((finding) => finding.sourceIds.includes(2))).toBe(true)
})

test('a piece ICU splits off after an abbreviation continues its sentence instead of being dropped', async () => {
  const { synthesis } = await synthesize(
    synthesisInput({
      sources: [
        source(
          1,
          'Solid-state batteries use sulfide electrolytes, e.g. argyrodites, which conduct lithium ions well. ' +
            'The electrolytes react with moist air. Solid-state batteries… and more',
        ),
      ],
    }),
  )
  expect(synthesis.findings.map((finding) => finding.text)).toEqual([
    'Solid-state batteries use sulfide electrolytes, e.g. argyrodites, which conduct lithium ions well.',
  ])
})

// Shaped like corpus/sample/batteries/solid-state-road-test.md: it shares one word ("cold") with
// "heat pumps in cold climates", and a search that settles for any of a query's words finds it.
const batteryRoadTest = `# Solid-state battery prototypes finish a winter road test

Norvik Motors has completed a 12,000 km road test of three prototype cars fitted with solid-state
batteries. Peak charging reached 250 kW, and charging from 10% to 80% took 14 minutes at mild
temperatures and 26 minutes in the cold, when the pack first had to warm itself.`

test('a page that shares one word with the topic but is about something else gives no finding', async () => {
  const { synthesis } = await synthesize(heatPumpInput([source(1, installerShortage), source(2, batteryRoadTest)]))
  expect(synthesis.findings.length).toBeGreaterThan(0)
  expect(synthesis.findings.map((finding) => finding.sourceIds)).toEqual(synthesis.findings.map(() => [1]))

  // A re-run whose only new page is that one has nothing new on the topic, and says so.
  const rerun = await synthesize(heatPumpInput([source(2, batteryRoadTest)]))
  expect(rerun.synthesis.findings).toEqual([])
  expect(rerun.synthesis.headline).toBe('No page read in this run is about heat pumps in cold climates')

  // Nor does it fill a focus area: that is a gap, not a finding from the wrong page.
  const focused = await synthesize({
    ...heatPumpInput([source(1, installerShortage), source(2, batteryRoadTest)]),
    focus: ['charging'],
  })
  expect(focused.synthesis.findings.every((finding) => !finding.sourceIds.includes(2))).toBe(true)
  expect(focused.synthesis.gaps).toEqual(['Nothing in this run\'s sources addressed "charging".'])
})

test('a page is on the topic with half its words, in its title, URL or text, and three suffice for a long topic', async () => {
  // "cold" in its text, "heat" and "pumps" in its title only.
  const titled = {
    ...source(1, 'The units kept homes warm through a cold week at -25 °C in 2026.'),
    title: 'Heat pumps',
  }
  const { synthesis } = await synthesize(heatPumpInput([titled]))
  expect(synthesis.findings.map((finding) => finding.text)).toEqual([
    'The units kept homes warm through a cold week at -25 °C in 2026.',
  ])

  // Its URL's path names it too: "AI" is in no sentence of this page about agents, only in its slug.
  const slug = {
    ...source(3, 'Agents now run for hours at 60% of teams in 2026.'),
    url: 'https://example.com/ai-agents/long-runs',
  }
  const { synthesis: agents } = await synthesize(synthesisInput({ topic: 'AI agents in production', sources: [slug] }))
  expect(agents.findings.map((finding) => finding.sourceIds)).toEqual([[3]])

  // "Solid-state batteries" asks two of solid, state and battery: a page on another battery has one.
  const sodium = source(1, 'Sodium-ion batteries reached 160 Wh/kg in 2026.')
  const solid = source(2, 'Solid-state cells reached 400 Wh/kg in 2026.')
  const { synthesis: batteries } = await synthesize(synthesisInput({ sources: [sodium, solid] }))
  expect(batteries.findings.map((finding) => finding.sourceIds)).toEqual([[2]])

  // Eleven words, of which the page holds three ("heat", "pump", "older").
  const long = 'heat pumps for older homes with cast iron radiators in cold climates of northern Scandinavia'
  const page = source(1, 'Heat pumps now warm older houses, a 2026 study found.')
  const { synthesis: longTopic } = await synthesize(synthesisInput({ topic: long, sources: [page] }))
  expect(longTopic.findings.map((finding) => finding.sourceIds)).toEqual([[1]])
})

/** A page an engine found by what the query means (Exa): it may share no word with the topic. */
function byMeaning(id: number, text: string): SourceForSynthesis {
  return { ...source(id, text), matchedByMeaning: true }
}

test("pages found by meaning that hold none of the brief's words give their opening sentences", async () => {
  const pages = [
    byMeaning(1, 'Les accumulateurs à électrolyte solide ont atteint 500 Wh/kg en 2026. Le déjeuner était bon.'),
    byMeaning(2, 'Festkörperakkus gehen 2027 in Serie. Das Wetter war schön.'),
  ]
  const { synthesis } = await synthesize(synthesisInput({ topic: 'solid-state batteries', sources: pages }))
  expect(synthesis.findings.map((finding) => finding.text).sort()).toEqual([
    'Festkörperakkus gehen 2027 in Serie.',
    'Les accumulateurs à électrolyte solide ont atteint 500 Wh/kg en 2026.',
  ])
})

test("when no page holds a word of the topic, the objective's words pick among pages found by meaning", async () => {
  const { synthesis } = await synthesize(
    synthesisInput({
      topic: 'Festkörperakkus',
      objective: 'costs per kWh',
      sources: [byMeaning(1, 'Solid-state cells cost $150 per kWh in 2026. The weather was pleasant.')],
    }),
  )
  expect(synthesis.findings.map((finding) => finding.text)).toEqual(['Solid-state cells cost $150 per kWh in 2026.'])
})

test('when no page holds a word of the topic, pages an engine found by words give nothing', async () => {
  // The corpus found these for "quantum error correction latest developments" and "... data and
  // statistics", by "latest" and "data": the words the plan added, not the topic's.
  const pages = [
    source(1, 'The latest prototypes drove 12,000 km on solid-state cells in 2026.'),
    source(2, 'Usage data show agents ran up bills of $40,000 in 2026.'),
  ]
  const { synthesis } = await synthesize(synthesisInput({ topic: 'quantum error correction', sources: pages }))
  expect(synthesis.findings).toEqual([])
  expect(synthesis.headline).toBe('No page read in this run is about quantum error correction')

  // Nor does the objective's word make one of them about the topic.
  const { synthesis: objective } = await synthesize(
    synthesisInput({ topic: 'quantum error correction', objective: 'costs and bills', sources: pages }),
  )
  expect(objective.findings).toEqual([])

  // Beside them, a page found by meaning gives its opening, and they still give nothing.
  const french = byMeaning(3, 'Les codes de surface corrigent les erreurs des qubits depuis 2026.')
  const { synthesis: meaning } = await synthesize(
    synthesisInput({ topic: 'quantum error correction', sources: [...pages, french] }),
  )
  expect(meaning.findings.map((finding) => finding.sourceIds)).toEqual([[3]])
})

test('a sentence that opens by pointing back ("It said ...") ranks below one that says what it is about', async () => {
  const pages = [
    source(1, 'Norvik Motors held a press day. It said solid-state batteries passed 12,000 km of road tests in 2026.'),
    source(2, "Vantor's solid-state batteries charged to 80% in 14 minutes during winter trials in 2026."),
  ]
  const { synthesis } = await synthesize(synthesisInput({ sources: pages }))
  expect(synthesis.findings.map((finding) => finding.text)).toEqual([
    "Vantor's solid-state batteries charged to 80% in 14 minutes during winter trials in 2026.",
    'It said solid-state batteries passed 12,000 km of road tests in 2026.',
  ])

  // "This year" points at the page's date, not at a sentence before: it is not held back.
  const dated = [
    source(1, 'Norvik Motors held a press day. This year solid-state batteries passed 12,000 km of road tests.'),
    pages[1] as SourceForSynthesis,
  ]
  const { synthesis: thisYear } = await synthesize(synthesisInput({ sources: dated }))
  expect(thisYear.findings[0]?.sourceIds).toEqual([1])
})

test('a word the topic writes in a compound counts only in that compound or alone, not in another', async () => {
  const { synthesis } = await synthesize(
    synthesisInput({
      topic: 'sodium-ion batteries',
      sources: [
        source(1, 'Sodium-ion batteries reached 160 Wh/kg in a 2026 test.'),
        // "ion" and "batteries", but in "lithium-ion": another chemistry.
        source(2, 'Lithium-ion batteries reached 300 Wh/kg in a 2026 test.'),
        // Written without the hyphen, the words still count.
        source(3, 'Sodium ion cells and their batteries cost $70 per kWh in 2026.'),
      ],
    }),
  )
  expect(synthesis.findings.map((finding) => finding.sourceIds).sort()).toEqual([[1], [3]])

  // "state" in "state-of-the-art" is not the "state" of "solid-state".
  const { synthesis: solid } = await synthesize(
    synthesisInput({ sources: [source(1, 'State-of-the-art batteries charged in 9 minutes in 2026.')] }),
  )
  expect(solid.findings).toEqual([])

  // A topic without compounds takes a page's compounds word by word: "AI-powered" says "AI".
  const { synthesis: agents } = await synthesize(
    synthesisInput({
      topic: 'AI agents',
      sources: [source(1, 'AI-powered assistants now answer 40% of tickets in 2026.')],
    }),
  )
  expect(agents.findings.map((finding) => finding.sourceIds)).toEqual([[1]])
})

test("a topic's words of time or number say when, not what about: they make no page about it", async () => {
  const pages = [
    source(1, 'Sodium-ion batteries cost $55 per kWh in 2026.'),
    // "batteries" and "today": half of "sodium-ion batteries today" by its words, but about another chemistry.
    source(2, 'Solid-state batteries cost more today than LFP packs, at $240 per kWh.'),
  ]
  const { synthesis } = await synthesize(synthesisInput({ topic: 'sodium-ion batteries today', sources: pages }))
  expect(synthesis.findings.map((finding) => finding.sourceIds)).toEqual([[1]])

  // A topic of nothing else keeps them.
  const { synthesis: year } = await synthesize(
    synthesisInput({ topic: '2026', sources: [pages[1] as SourceForSynthesis] }),
  )
  expect(year.findings).toEqual([])
  const { synthesis: dated } = await synthesize(
    synthesisInput({ topic: '2026', sources: [pages[0] as SourceForSynthesis] }),
  )
  expect(dated.findings.map((finding) => finding.sourceIds)).toEqual([[1]])
})

/** A news page as a site serves it: its furniture around the story. */
function newsPage(id: number, site: string, title: string, story: string[]): SourceForSynthesis {
  const text = [
    'Home | News | Sport | Business',
    `Cookies help us keep the ${site} free to read for everyone.`,
    ...story,
    `Get the ${site} Daily in your inbox every lunchtime, with the stories that matter.`,
  ].join('\n\n')
  return { id, url: `https://www.${site.toLowerCase()}.example/news/${id}`, title, publishedDate: null, text }
}

test("a news story gives its facts, though they say 'the company' instead of the topic's words; its site's furniture and a page that mentions the topic in passing give nothing", async () => {
  const story = newsPage(1, 'Courier', 'Velorastat migraine pill maker picks old brickworks for factory', [
    'Corvane Therapeutics, the maker of the velorastat migraine drug, will build its factory on the old brickworks site.',
    'The company plans to spend $310m on the plant, which will employ 420 people once it is running.',
    'Residents said they were pleased to see the site used again.',
  ])
  const other = newsPage(2, 'Courier', 'Review: The Kiln Room serves proper pies', [
    'The Kiln Room has the best pies in town, a short walk from the market square and the station.',
    'A steak pie costs £14 and the portions are generous, with a crust worth the wait.',
    'Builders from the site of the new velorastat migraine drug factory pack the room at lunchtime.',
  ])
  const { synthesis } = await synthesize(synthesisInput({ topic: 'velorastat migraine drug', sources: [story, other] }))
  const texts = synthesis.findings.map((finding) => finding.text)
  expect(texts).toContain(
    'The company plans to spend $310m on the plant, which will employ 420 people once it is running.',
  )
  expect(synthesis.findings.every((finding) => finding.sourceIds.every((id) => id === 1))).toBe(true)
  expect(texts.join(' ')).not.toMatch(/Cookies|inbox/)
})

test("a person's age or years, in a clause about them or in their own words, state nothing of the topic", async () => {
  const story = newsPage(1, 'Courier', 'Velorastat factory: what we know', [
    'Corvane will spend $310m on the velorastat migraine drug factory at the old brickworks.',
    'The plant will employ 420 people once it is running in 2028.',
    'Gillian Rowe, who is 71 and has lived on Church Lane since the 1980s, keeps a notebook by the kitchen window.',
    'Building work is due to start on 4 May and take 26 months.',
    'The firm has applied for a £4.5m grant from the regional growth fund.',
    'A second packaging line, costing $12m, is planned for 2029.',
    'The factory will make 40 million tablets a year at full output.',
    '"I have lived next to that site for 31 years," said Ms Rowe.',
  ])
  const { synthesis } = await synthesize(synthesisInput({ topic: 'velorastat migraine drug', sources: [story] }))
  const texts = synthesis.findings.map((finding) => finding.text)
  expect(texts).toHaveLength(6)
  expect(texts.join(' ')).not.toMatch(/Gillian Rowe|31 years/)
})

test('a sentence stating the figures memory holds about the same thing, in other words, is not reported again', async () => {
  const page = newsPage(1, 'Courier', 'Velorastat factory rises', [
    'Steel frames for the velorastat migraine drug factory went up this month on the brickworks site.',
    'Once finished, the factory will have room for 420 workers making the tablet.',
    'The firm also said that its new packaging line would cost $12m to install by March.',
  ])
  const { synthesis } = await synthesize(
    synthesisInput({
      topic: 'velorastat migraine drug',
      sources: [page],
      knownFacts: ['The plant is expected to employ 420 people once it is running.'],
    }),
  )
  const texts = synthesis.findings.map((finding) => finding.text).join(' ')
  expect(texts).not.toContain('420 workers')
  expect(texts).toContain('$12m')
})

test('a decision is a finding though it states no figure; a teaser question and a bid to the reader are not', async () => {
  const story = newsPage(1, 'Gazette', 'Brackwater ferry service: council decides', [
    'The future of the Brackwater ferry looks less certain after a long night at the town hall.',
    // The story's decisions say "councillors" and "the operator", not the topic's words.
    'Councillors voted the terminal plan down on Tuesday night.',
    'The operator withdrew its application for a second crossing last month.',
    'The mood on the quayside was sombre as the evening boat came in, its lights low over the water.',
    'Gulls wheeled over the harbour wall while the last passengers of the day filed off the ramp.',
    'The slipway, the ticket hut and the old waiting room were all painted blue in the spring.',
    'Is the Brackwater ferry worth saving?',
    'Subscribe to the Gazette ferry briefing before the next meeting.',
  ])
  const { synthesis } = await synthesize(synthesisInput({ topic: 'Brackwater ferry', sources: [story] }))
  const texts = synthesis.findings.map((finding) => finding.text)
  expect(texts).toContain('Councillors voted the terminal plan down on Tuesday night.')
  expect(texts).toContain('The operator withdrew its application for a second crossing last month.')
  expect(texts.join(' ')).not.toMatch(/worth saving|Subscribe/)
})

test('a figure beside a term in quotation marks, and a percentage in words, state something a reader can check', async () => {
  const story = newsPage(1, 'Courier', 'Marsh Lane library: what changes in the spring', [
    'Marsh Lane library will move to self-service machines in the spring, the council said.',
    // Neither names the topic's words; each states a figure, one in words.
    'The council has recruited 40 "digital helpers" to show readers the new machines.',
    'Opening hours will be cut by forty per cent from April.',
    'The reading room was busy on a wet Tuesday afternoon.',
    'Children sat on beanbags under the window while a volunteer read aloud.',
    'The building smells of floor polish and old paper, as it always has.',
    'A queue formed at the returns desk just before closing time.',
    'Outside, the car park was full and the rain had not let up.',
  ])
  const { synthesis } = await synthesize(synthesisInput({ topic: 'Marsh Lane library', sources: [story] }))
  const texts = synthesis.findings.map((finding) => finding.text)
  expect(texts).toContain('The council has recruited 40 "digital helpers" to show readers the new machines.')
  expect(texts).toContain('Opening hours will be cut by forty per cent from April.')
})

test('who holds a post is a fact of the story: an appointment and a departure are findings, what a closure has left is not', async () => {
  const story = newsPage(1, 'Courier', 'Wexcombe museum extension: a new director', [
    'The Wexcombe museum extension will open a year late, the trust said on Monday.',
    // Neither names the topic's words, a figure or a decision.
    'Dana Whitcombe, the director who led the project from the start, has left the trust.',
    'Oliver Prest, previously deputy director at a gallery in Bristol, has been appointed to the role on an interim basis.',
    'Sam Ward, the finance director, will become interim Chief Executive.',
    'The long closure has left its mark on the high street.',
    'Visitors wandered through the old galleries on a quiet afternoon.',
    'Rain ran down the windows of the café by the entrance.',
  ])
  const { synthesis } = await synthesize(synthesisInput({ topic: 'Wexcombe museum extension', sources: [story] }))
  const texts = synthesis.findings.map((finding) => finding.text)
  expect(texts).toContain('Dana Whitcombe, the director who led the project from the start, has left the trust.')
  expect(texts).toContain(
    'Oliver Prest, previously deputy director at a gallery in Bristol, has been appointed to the role on an interim basis.',
  )
  expect(texts).toContain('Sam Ward, the finance director, will become interim Chief Executive.')
  expect(texts.join(' ')).not.toMatch(/left its mark|quiet afternoon/)
})

test('a decision memory holds, taken again in other words, is not reported again; one memory also holds the opposite of is', async () => {
  const page = newsPage(1, 'Gazette', 'Brackwater ferry: what the council decided', [
    'The future of the Brackwater ferry was on the agenda again at the town hall this week.',
    'Councillors approved the new ferry timetable for the winter months.',
    'The operator agreed to keep the Sunday crossing after all.',
  ])
  const { synthesis } = await synthesize(
    synthesisInput({
      topic: 'Brackwater ferry',
      sources: [page],
      knownFacts: [
        'The council approved the winter ferry timetable in October.',
        'The operator agreed to run a Sunday crossing.',
        'The operator withdrew the Sunday crossing in November.',
      ],
    }),
  )
  const texts = synthesis.findings.map((finding) => finding.text).join(' ')
  expect(texts).not.toContain('Councillors approved the new ferry timetable')
  expect(texts).toContain('The operator agreed to keep the Sunday crossing after all.')
})

test('a decision that turns round the figure memory holds is news, not a restatement', async () => {
  const page = newsPage(1, 'Gazette', 'Orla Maritime Museum loses its biggest donor', [
    'The Pellow Foundation has withdrawn its £2.5 million pledge to the Orla Maritime Museum.',
  ])
  const { synthesis } = await synthesize(
    synthesisInput({
      topic: 'Orla Maritime Museum',
      sources: [page],
      knownFacts: ['A further £2.5m has been pledged by the Pellow Foundation to the museum.'],
    }),
  )
  expect(synthesis.findings.map((finding) => finding.text)).toContain(
    'The Pellow Foundation has withdrawn its £2.5 million pledge to the Orla Maritime Museum.',
  )
})

test('a decision turned round in the words memory holds the thing in is news, figure or none', async () => {
  const page = newsPage(1, 'Gazette', 'Walkouts paused for a vote', [
    'The drivers union has suspended the Dunlow bus strikes planned for next month.',
  ])
  const { synthesis } = await synthesize(
    synthesisInput({
      topic: 'Dunlow bus strikes',
      sources: [page],
      knownFacts: ['The drivers union has called Dunlow bus strikes for next month.'],
    }),
  )
  expect(synthesis.findings.map((finding) => finding.text)).toContain(
    'The drivers union has suspended the Dunlow bus strikes planned for next month.',
  )
})

test("a person's words give a finding with a quantity or a close date, not with a year or a time of day", async () => {
  const page = newsPage(1, 'Gazette', 'Orla Maritime Museum: the works in numbers', [
    'The Orla Maritime Museum renovation will cost £14.2 million, the trust said.',
    'The museum closed to visitors in January 2025 and has been shut for 21 months.',
    'The new gallery wing adds 1,800 square metres of floor space.',
    'Builders have replaced 340 windows in the old customs house.',
    'The trust has raised £9.1 million of the total so far.',
    'The lottery fund gave £6.2 million in 2024.',
    '"We still expect 40,000 visitors a year once the museum reopens," the director said.',
    '"I suppose I will just have to wait until 2028 now," said one volunteer at the museum.',
    '"By 2:30 the queue was round the corner," said another.',
  ])
  const { synthesis } = await synthesize(synthesisInput({ topic: 'Orla Maritime Museum', sources: [page] }))
  const texts = synthesis.findings.map((finding) => finding.text).join(' ')
  expect(texts).toContain('40,000 visitors')
  expect(texts).not.toMatch(/until 2028|By 2:30/)
})

test("an age beside a name, or a clause about a person or their family, gives the person's figures, not the topic's", async () => {
  // Two stories, each short: far down one, a sentence would need another source (NEWS_DEPTH).
  const story = newsPage(1, 'Courier', 'Velorastat factory: what we know', [
    'Corvane will spend $310m on the velorastat migraine drug factory at the old brickworks.',
    'The plant will employ 420 people once it is running in 2028.',
    'Engineer Mark Tunstall, 38, left the open evening with two interview dates.',
    'Building work is due to start on 4 May and take 26 months.',
    'Dana Whitcomb, whose son is 12, said the traffic on Church Lane worried her.',
  ])
  const more = newsPage(2, 'Gazette', 'Velorastat migraine drug factory: the jobs', [
    'The firm has applied for a £4.5m grant from the regional growth fund.',
    'Brereton, who played 400 games for the town side, said he would apply for a job there.',
    // A group's clause, or a company's, may be what the story reports.
    'Shareholders, who backed the plan by 78% to 22%, will meet again in March.',
    'Corvane, whose 14 sites make 90 million tablets a year, expects to hire more staff.',
    'The factory will make 40 million tablets a year at full output.',
  ])
  const { synthesis } = await synthesize(synthesisInput({ topic: 'velorastat migraine drug', sources: [story, more] }))
  const texts = synthesis.findings.map((finding) => finding.text).join(' ')
  expect(texts).not.toMatch(/Tunstall|Whitcomb|Brereton/)
  expect(texts).toContain('backed the plan by 78%')
  expect(texts).toContain('whose 14 sites')
  expect(synthesis.findings).toHaveLength(7)
})

test('a sentence that sets the story beside others, or says what holds for anyone, is no finding about the topic', async () => {
  const story = newsPage(1, 'Courier', 'Velorastat factory: what we know', [
    'Corvane will spend $310m on the velorastat migraine drug factory at the old brickworks.',
    'The plant will employ 420 people once it is running in 2028.',
    'Nationally, about 78% of drug factories now run on renewable power, according to industry figures.',
    'Building work is due to start on 4 May and take 26 months.',
    'Elsewhere in the region, Halden Pharma opened a £9m warehouse this month.',
  ])
  const more = newsPage(2, 'Gazette', 'Velorastat migraine drug factory: the plans', [
    'The firm has applied for a £4.5m grant from the regional growth fund.',
    'Construction costs for clean rooms rose by 9% across the country last year.',
    'A second packaging line, costing $12m, is planned for 2029.',
    'Under the Planning Act 2008, the council must decide within 16 weeks.',
    'The factory will make 40 million tablets a year at full output.',
    'Anyone who wants to comment on the plans has 21 days to write to the council.',
  ])
  const { synthesis } = await synthesize(synthesisInput({ topic: 'velorastat migraine drug', sources: [story, more] }))
  const texts = synthesis.findings.map((finding) => finding.text).join(' ')
  expect(texts).not.toMatch(/Nationally|Halden|9%|Planning Act|21 days/)
  expect(synthesis.findings).toHaveLength(6)
})

test('a sentence dated to the news cycle ("on Tuesday", "last week") is picked before one that states its figure undated', async () => {
  const story = newsPage(1, 'Courier', 'Velorastat migraine drug: the latest', [
    'Velorastat costs $545 a month in the United States.',
    'Velorastat was tested on 1,840 adults in its main study.',
    'Velorastat is made at a plant with 420 staff.',
    'Velorastat sales reached $38m last week, Corvane said.',
  ])
  const { synthesis } = await synthesize(synthesisInput({ topic: 'velorastat migraine drug', sources: [story] }))
  expect(synthesis.findings[0]?.text).toBe('Velorastat sales reached $38m last week, Corvane said.')
})

test('memory keeps every other sentence that states something about the topic, each once: not the report’s, not colour, not a passing page', async () => {
  const facts = [
    'The company plans to spend $310m on the plant, which will employ 420 people once it is running.',
    'Construction of the velorastat factory will start in March 2027, Corvane said.',
    'The brickworks site covers 14 hectares on the edge of Harrowby.',
    'Corvane bought the site from the district council for £6.2m last year.',
    'The plant will make 90 million velorastat tablets a year at full output.',
    'About 1,200 construction jobs will be created while the factory is built.',
    'The council approved the outline planning application in June 2026.',
    'Velorastat sales reached $410m in the first half of 2026.',
    'The drug is prescribed to about 85,000 patients in the UK.',
    'Corvane employs 2,300 people at its other four sites.',
    'The factory is due to open in the autumn of 2029.',
    'A new road junction, costing £3.4m, will serve the site from the A614.',
    'The site has stood empty since the brickworks closed in 1998.',
    'Corvane will train 60 apprentices a year at the plant.',
    'The company expects to recruit 150 of the staff locally in the first year.',
    'A second production line could add 40 million tablets a year after 2031.',
    'Corvane will put £1.5m into a fund for local schools over ten years.',
    'Velorastat was approved for adults in the UK in May 2025.',
    'The company said the plant would cut its shipping costs by 18%.',
    'Harrowby’s unemployment rate stood at 5.1% in the last quarter, the council said.',
  ]
  const colour = 'Residents said they were pleased to see the old velorastat brickworks site used again.'
  const story = newsPage(1, 'Courier', 'Velorastat migraine pill maker picks old brickworks for factory', [
    ...facts.slice(0, 10),
    colour,
    ...facts.slice(10),
  ])
  const passing = newsPage(2, 'Courier', 'Review: The Kiln Room serves proper pies', [
    'The Kiln Room has the best pies in town, a short walk from the market square and the station.',
    'A steak pie costs £14 and the portions are generous, with a crust worth the wait.',
    'Builders from the site of the new velorastat migraine drug factory pack the room at lunchtime.',
  ])
  const { synthesis } = await synthesize(
    synthesisInput({ topic: 'velorastat migraine drug', sources: [story, passing] }),
  )
  const shown = synthesis.findings.map((finding) => finding.text)
  const kept = (synthesis.remembered ?? []).map((finding) => finding.text)
  // The report is a few of them; memory keeps the others, so together they are every fact, once.
  expect(shown.length).toBeLessThan(facts.length)
  expect(kept.filter((text) => shown.includes(text))).toEqual([])
  expect(new Set(kept).size).toBe(kept.length)
  expect([...shown, ...kept].filter((text) => facts.includes(text)).sort()).toEqual([...facts].sort())
  expect(kept).not.toContain(colour)
  expect(
    synthesis.remembered?.every((finding) => finding.sourceIds.join() === '1' && finding.quote === finding.text),
  ).toBe(true)
})

test('far down a story, a sentence is shown only when another source tells its figure too; memory keeps the rest', async () => {
  const opening = [
    'Corvane Therapeutics will build its velorastat migraine drug factory on the old brickworks site at Harrowby.',
    'The company plans to spend $310m on the plant.',
    'It will employ 420 people once it is running.',
    'Construction will start in March 2027.',
    'The council approved the planning application on Tuesday.',
    'The factory is due to open in the autumn of 2029.',
    'A new road junction, costing £3.4m, will serve the site.',
    'Corvane will train 60 apprentices a year at the plant.',
  ]
  const background = [
    'The brickworks closed in 1998 with the loss of 140 jobs.',
    'Harrowby’s unemployment rate stood at 5.1% in the last quarter.',
  ]
  const toldTwice = 'At full output the plant will make 90 million velorastat tablets a year.'
  const story = newsPage(1, 'Courier', 'Velorastat migraine drug factory for Harrowby', [
    ...opening,
    ...background,
    toldTwice,
  ])
  const other = newsPage(2, 'Gazette', 'Velorastat migraine drug maker picks Harrowby', [
    'Corvane Therapeutics has chosen Harrowby for its first velorastat migraine drug factory in Britain.',
    'The company said the decision followed a two-year search.',
    'Its chief executive, Maren Holt, visited the site on Tuesday.',
    'The velorastat migraine drug was approved for adults in May 2025.',
    'Demand for the drug has grown faster than Corvane expected.',
    'Its existing plant in Ghent is running at capacity.',
    'The company employs 2,300 people worldwide.',
    'Shares in Corvane rose 3% on the news.',
    'Ms Holt said the Harrowby plant would make 90 million tablets a year.',
  ])
  const { synthesis } = await synthesize(synthesisInput({ topic: 'velorastat migraine drug', sources: [story, other] }))
  const shown = synthesis.findings.map((finding) => finding.text)
  const kept = (synthesis.remembered ?? []).map((finding) => finding.text)
  for (const sentence of background) {
    expect(shown).not.toContain(sentence)
    expect(kept).toContain(sentence)
  }
  expect(shown.some((text) => text.includes('90 million'))).toBe(true)
})

test('a report still gets its first findings from far down a page when its top states nothing more', async () => {
  const story = newsPage(1, 'Courier', 'Velorastat migraine drug factory: the story so far', [
    'The velorastat factory has divided Harrowby like nothing since the bypass.',
    'Some welcome the velorastat plant as a sign of confidence in the town.',
    'Others fear that velorastat lorries will crowd the narrow streets of the old town.',
    'The velorastat plans were the talk of the market on Saturday morning.',
    'Few in Harrowby had heard of velorastat before the plans were published.',
    'The velorastat scheme has its own page on the council website.',
    'Corvane will spend $310m on the velorastat migraine drug factory.',
    'The plant will employ 420 people once it is running in 2028.',
    'Building work is due to start on 4 May and take 26 months.',
  ])
  const { synthesis } = await synthesize(synthesisInput({ topic: 'velorastat migraine drug', sources: [story] }))
  const texts = synthesis.findings.map((finding) => finding.text)
  expect(texts).toContain('The plant will employ 420 people once it is running in 2028.')
  expect(texts).toContain('Building work is due to start on 4 May and take 26 months.')
})

test('a count written in words, as a newsroom opens a sentence with one, states a figure; "the two villages" and "four decades" do not', async () => {
  const story = newsPage(1, 'Herald', 'Orrin Valley library cuts: what we know', [
    'The Orrin Valley library service is to be reorganised from the spring.',
    'Eleven part-time posts will go under the plan, the county said.',
    'Four branches have already moved into shared buildings with the county’s health visitors.',
    'The county expects the changes to save £410,000 a year from April 2027.',
    'A consultation on the plan runs until 14 March.',
    'Opening hours at the Orrin branch will fall to 22 a week.',
    'The two villages at the head of the valley have long shared a mobile library.',
    'Eileen Marsh, who has volunteered at the Orrin branch for four decades, was among those at the meeting.',
  ])
  const { synthesis } = await synthesize(synthesisInput({ topic: 'Orrin Valley library cuts', sources: [story] }))
  const texts = synthesis.findings.map((finding) => finding.text)
  expect(texts).toContain('Eleven part-time posts will go under the plan, the county said.')
  expect(texts).toContain('Four branches have already moved into shared buildings with the county’s health visitors.')
  expect(texts.join(' ')).not.toMatch(/two villages|four decades/)
})

test('a sentence that states nothing and names no one beyond the topic is the lede of a story told below it, not a finding', async () => {
  const story = newsPage(1, 'Herald', 'Pemberton Mills loses its biggest customer', [
    'The biggest order on Pemberton Mills’ books has gone.',
    'Halloran Foods has cancelled its contract with the mill, the company told staff.',
    // A sentence's first word takes a capital whatever it is.
    'Weavers who had counted on Pemberton Mills overtime got unwelcome news.',
    'The Textile Workers Union called the loss of the Pemberton Mills order a betrayal of the town.',
    'Pemberton Mills employs 340 people at its Carrbridge site.',
    'Halloran took 2.1 million metres of Pemberton Mills cloth last year, about a third of its output.',
    'Carrbridge councillor Amir Shah said he would meet the Pemberton Mills board on Friday.',
    '"We will fight for every one of these jobs," said Maureen Tate, the union’s regional organiser.',
  ])
  const { synthesis } = await synthesize(synthesisInput({ topic: 'Pemberton Mills', sources: [story] }))
  const texts = synthesis.findings.map((finding) => finding.text)
  expect(texts).toContain('Halloran Foods has cancelled its contract with the mill, the company told staff.')
  expect(texts).toContain('Pemberton Mills employs 340 people at its Carrbridge site.')
  // Who acted, named, though it states no figure.
  expect(texts).toContain(
    'The Textile Workers Union called the loss of the Pemberton Mills order a betrayal of the town.',
  )
  expect(texts.join(' ')).not.toMatch(/biggest order|unwelcome news|fight for every one/)
})
