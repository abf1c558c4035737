import fc from 'fast-check'
import { expect, test } from 'vitest'
import {
  classifyClaims as classify,
  JUDGE_MEMORY_CHARS,
  type JudgeRequest,
  type KnownClaim,
  type PairJudge,
  type PairRequest,
  type Verdict,
} from '#server/claims/classify.ts'
import { compareStatements, extractStatements } from '#server/claims/figures.ts'
import { locateQuote, preparePage } from '#server/claims/quote.ts'
import {
  decides,
  opposed,
  polarity,
  stanceSign,
  stanceThemes,
  stemsOnce,
  subjectPhrases,
  subjectTerms,
} from '#server/claims/subject.ts'
import { packVector, unpackVector } from '#server/claims/vectors.ts'
import { type VerifiedClaim, verifyClaims } from '#server/claims/verify.ts'

type ClosestItem = { claim: { text: string; quote: string }; candidates: Array<{ text: string; quote: string }> }

/**
 * Most tests judge among each claim's closest memory claims, as the judge of old did: `candidate` is
 * an index into them, translated here into memory's numbering of the request.
 */
function classifyClaims<K extends KnownClaim>(
  claims: Parameters<typeof classify>[0],
  memory: K[],
  judge?: (items: ClosestItem[]) => Promise<Verdict[]>,
) {
  return classify(claims, memory, judge && byClosest(judge))
}

/** A judge that calls every claim new: a slip the rules' sure verdicts stand against. */
async function callsAllNew(request: JudgeRequest): Promise<Verdict[]> {
  return request.items.map((_, index) => ({ index, class: 'new' as const, candidate: null }))
}

function byClosest(judge: (items: ClosestItem[]) => Promise<Verdict[]>) {
  return async ({ memory, items }: JudgeRequest) => {
    const verdicts = await judge(
      items.map((item) => ({
        claim: item.claim,
        candidates: item.closest.map((at) => memory[at] as ClosestItem['claim']),
      })),
    )
    return verdicts.map((verdict) => ({
      ...verdict,
      candidate: verdict.candidate === null ? null : (items[verdict.index]?.closest[verdict.candidate] ?? null),
    }))
  }
}

test('a quote is found through changes of spacing, quote marks, dashes and case, and nothing else', () => {
  const page = preparePage('The agency said:  “Cells now cost $80/kWh — down from $90.”\nThat is **new**.')
  expect(locateQuote('cells now cost $80/kWh - down from $90.', page)).toBe('Cells now cost $80/kWh — down from $90.')
  expect(locateQuote('The agency said: "Cells now cost', page)).toBe('The agency said:  “Cells now cost')
  expect(locateQuote('That is new.', page)).toBe('That is new.')
  expect(locateQuote('cells now cost $70/kWh - down from $90.', page)).toBeUndefined()
  expect(locateQuote('cells now costs $80/kWh', page)).toBeUndefined()
  expect(locateQuote('', page)).toBeUndefined()
  expect(locateQuote('$80', page)).toBeUndefined()
  // Pages reach the model with "<" and ">" escaped; a quote that keeps the escapes is still found.
  expect(locateQuote('if a &lt; b then c &gt; d', preparePage('Rule: if a < b then c > d.'))).toBe(
    'if a < b then c > d',
  )
  // Nested links read as their text, however deep.
  expect(locateQuote('see label and more', preparePage('see [[label](https://a.test)](https://e.test) and more'))).toBe(
    'see label and more',
  )
})

test('any span of a page is found in it, whatever its spacing and case', () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom('cells', 'cost', '$80', '“quoted”', 'a—b', 'Ünïcode', 'x'), {
        minLength: 8,
        maxLength: 30,
      }),
      fc.nat(),
      fc.nat(),
      (words, a, b) => {
        const page = words.join(' \n ')
        const start = a % words.length
        const end = Math.min(words.length, start + 3 + (b % 6))
        const quote = words.slice(start, end).join(' ').toUpperCase()
        if (quote.replace(/\s/g, '').length < 12) return
        expect(locateQuote(quote, preparePage(page))).toBeDefined()
      },
    ),
  )
})

test('figures compare equal across wordings and units, and differ when a value changes', () => {
  const a = extractStatements('Sodium-ion cells cost $80/kWh in March 2026.')
  expect(a).toEqual({ figures: [{ value: 80, unit: 'usd/kwh' }], dates: ['2026-03'] })
  for (const wording of ['Cells cost 80 dollars per kWh.', 'Cells cost USD 80 per kilowatt-hour.']) {
    expect(extractStatements(wording).figures).toEqual(a.figures)
  }
  expect(extractStatements('Revenue reached $1.2 billion in Q3 2025.')).toEqual({
    figures: [{ value: 1.2e9, unit: 'usd' }],
    dates: ['2025-Q3'],
  })
  expect(extractStatements('Prices fell 18% and 4.5 percentage points.').figures).toEqual([
    { value: 18, unit: '%' },
    { value: 4.5, unit: 'pp' },
  ])
  expect(extractStatements('Cells now cost $80.').dates).toEqual([]) // "now" is no date
  expect(compareStatements(a, extractStatements('cells cost $90/kWh'))).toMatchObject({ figuresDiffer: true })
  expect(compareStatements(a, extractStatements('cells cost $80/kWh in 2026'))).toEqual({
    figuresDiffer: false,
    datesDiffer: false,
    comparable: true,
  })
  expect(compareStatements(a, extractStatements('launch in April 2026'))).toMatchObject({ datesDiffer: true })
})

test('subjects leave out figures, negation and direction; polarity reads them', () => {
  expect(subjectTerms('Sales of heat pumps rose 12% in 2026')).toEqual(subjectTerms('Sales of heat pumps fell 3%'))
  expect(opposed(polarity('Sales rose'), polarity('Sales fell'))).toBe(true)
  expect(opposed(polarity('The merger was approved'), polarity('The merger was not approved'))).toBe(true)
  expect(opposed(polarity('Sales did not fall'), polarity('Sales rose'))).toBe(false)
  expect(opposed(polarity('The plant opened'), polarity('The plant opened on time'))).toBe(false)
  // A negated phrase is one negation, not two ("no" and "no longer"), and turns round the stance of
  // its clause as "not" does.
  expect(polarity('The fab is no longer on track to open')).toEqual({ negated: false, directions: ['stance:down'] })
  // A clause that had its verb ends at an auxiliary, and "since" after one is no clause of its own.
  expect(polarity('The permit that the board granted in March has since been revoked').directions).toEqual([
    'stance:down',
  ])
  expect(polarity('The bridge has since closed').directions).toEqual(['stance:down'])
  // A phrasal verb made a noun by its hyphen may be qualified like any noun.
  expect(
    polarity("The ministerial sign-off that Glenmarra's authority won in March has since been withdrawn.").directions,
  ).toEqual(['stance:down'])
  // Dropping a thing is a decision against it, approving a change is the change's stance; "sales
  // dropped" is a fall.
  expect(polarity('The firm dropped its bid').directions).toEqual(['stance:down'])
  expect(polarity('Sales dropped 5% in March').directions).toEqual(['trend:down'])
  expect(polarity('Councillors approved dropping the 9.15pm sailing').directions).toEqual(['stance:down'])
  expect(polarity('They approved opening the bridge').directions).toEqual(['stance:up'])
  // An end put to a decision is the decision's opposite: "walked back its decision to drop" keeps.
  expect(
    opposed(
      polarity('The council has walked back its decision to drop the 9.15pm winter sailing'),
      polarity('The committee voted to scrap the 9.15pm departure'),
    ),
  ).toBe(true)
  expect(
    opposed(
      polarity('The airline has scrapped its plan to launch the routes'),
      polarity('The airline will launch nine routes'),
    ),
  ).toBe(true)
  // A denial denied accepts what follows: "nobody disputes", "no longer disputes", "does not deny".
  expect(polarity('Nobody, the company included, disputes that 23% leaked away').negated).toBe(false)
  expect(
    opposed(
      polarity('The company no longer disputes that its creamery was the source'),
      polarity('Brennock denied that its creamery was the source'),
    ),
  ).toBe(true)
  expect(opposed(polarity('It does not deny that it was the source'), polarity('It accepted it was the source'))).toBe(
    false,
  )
  // A stance taken on a stance is one stance, the signs multiplied: refusing a restart is against
  // going ahead, approving a closure is for the closure, refusing a closure keeps what is there.
  expect(polarity("The agency refused the firm's application to restart.").directions).toEqual(['stance:down'])
  expect(decides("The agency refused the firm's application to restart.")).toBe(true)
  expect(polarity('The board agreed to close the unit.').directions).toEqual(['stance:down'])
  expect(polarity('The council approved the plan to close the library.').directions).toEqual(['stance:down'])
  expect(polarity('The court upheld the decision to close the unit.').directions).toEqual(['stance:down'])
  expect(polarity('The board refused to close the unit.').directions).toEqual(['stance:up'])
  expect(polarity('The union refused to call off the strike.').directions).toEqual(['stance:up'])
  expect(polarity('The agency rejected the plan to reopen the line.').directions).toEqual(['stance:down'])
  // Through a preposition: not going ahead with a closure keeps what is there, as shelving it does.
  expect(
    polarity('The cabinet has decided not to proceed with the proposal to close Marsh Lane School.').directions,
  ).toEqual(['stance:up'])
  expect(polarity('The county council shelved its plan to close the school.').directions).toEqual(['stance:up'])
  expect(polarity('The trust will press on with plans to shut the ward.').directions).toEqual(['stance:down'])
  // A stance a noun of the object names is taken on as one a verb names: scrapping a closure plan is
  // scrapping a plan to close, and reverses approving a proposal to close.
  expect(polarity('The council scrapped its closure proposal last week.').directions).toEqual(['stance:up'])
  expect(polarity('The board rejected the closure.').directions).toEqual(['stance:up'])
  expect(polarity('The cabinet approved the closure of the depot.').directions).toEqual(['stance:down'])
  expect(
    opposed(
      polarity('The council scrapped its closure proposal last week.'),
      polarity('The council approved a proposal to close the school.'),
    ),
  ).toBe(true)
  expect(polarity('The council approved the grant.').directions).toEqual(['stance:up'])
  // What was shelved and is brought back is restored.
  expect(
    opposed(
      polarity('The district council has brought back its voucher scheme.'),
      polarity('The district council has shelved its voucher scheme.'),
    ),
  ).toBe(true)
  // "Declined to" refuses what follows; "declined to comment" takes no stance, and sales that
  // declined fell.
  expect(polarity('The board declined to renew the contract.').directions).toEqual(['stance:down'])
  expect(decides('The board declined to renew the contract.')).toBe(true)
  expect(polarity('The company declined to comment.').directions).toEqual([])
  expect(polarity('Sales declined to 400 units.').directions).toEqual(['trend:down'])
  // An appeal brought is a stand against what it names, and a challenge not brought accepts it; a
  // bonus waived is given up, a payment stood by is kept.
  expect(polarity('Corrin Water lodged an appeal against the civil penalty on 29 May.').directions).toEqual([
    'stance:down',
  ])
  expect(decides('Corrin Water lodged an appeal against the civil penalty on 29 May.')).toBe(true)
  expect(
    opposed(
      polarity('The company is now challenging the penalty it was handed in May.'),
      polarity('The company said it would not contest the penalty.'),
    ),
  ).toBe(true)
  expect(
    opposed(polarity('The chief executive has waived his bonus.'), polarity('The company has stood by the payment.')),
  ).toBe(true)
  // A phrasal verb's other forms are negations; its bare form after "to" is read with what governs it.
  expect(polarity('Carrick Homes walks away from the final phase').negated).toBe(true)
  expect(polarity('The union agreed to call off the strike.').directions).toEqual(['stance:down'])
  expect(polarity('The firm refused to pull out of the deal.').directions).toEqual(['stance:up'])
  // A contract is an agreement; only a verb "contracts" is a fall.
  expect(polarity('The firm signed the contract.').directions).toEqual(['stance:up'])
  expect(polarity('Output contracted by 3%.').directions).toEqual(['trend:down'])
  // A word between a determiner and its noun says which thing, not what was done to it.
  expect(polarity('The failed section of pipe has been replaced.').directions).toEqual([])
  expect(polarity('The rejected scheme will return to committee.').directions).toEqual([])
  expect(polarity('The drug is ineligible for funding.').directions).toEqual(['stance:down'])
  expect(polarity('The bid failed to win approval').directions).toEqual(['stance:down'])
  expect(polarity('Work on the glass extension remains frozen.').directions).toEqual(['stance:down'])
  // One stance however it is worded, and a negation in another clause does not turn it round.
  expect(opposed(polarity('Oskarsen pulled out of the deal'), polarity('Oskarsen withdrew from the deal'))).toBe(false)
  expect(
    opposed(
      polarity('The branch was shelved in July and is not part of the plan.'),
      polarity('The cabinet has shelved the branch.'),
    ),
  ).toBe(false)
  expect(opposed(polarity('The fab is on track to open'), polarity('The fab is no longer on track to open'))).toBe(true)
  expect(subjectTerms('The fab is no longer on track')).toEqual(subjectTerms('The fab is on track'))
  // A word and its derivations are one subject: "production" is what "producing" does; and a word
  // is its most frequent sense, whichever of its synonyms says it.
  expect(subjectTerms('approval for teenagers')).toEqual(subjectTerms('approval for adolescents'))
  expect(subjectTerms('parking spots')).toEqual(subjectTerms('parking places'))
  // A word read far more often as an adjective is not folded by a noun's sense ("full", the full moon).
  expect(subjectTerms('the work will go ahead in full')).toEqual(subjectTerms('the work will go ahead fully'))
  expect(subjectTerms('the company')).not.toEqual(subjectTerms('the firm'))
  // A symbol or a name in WordNet folds no word: "tonnes" are not "Mt" (meitnerium), nor "dB"
  // dubnium, and the town of Salisbury is not Harare.
  expect(subjectTerms('tonnes released')).not.toEqual(subjectTerms('Mt released'))
  expect(subjectTerms('tonnes released')).toEqual(subjectTerms('tonne released'))
  expect(subjectTerms('a dB limit')).not.toEqual(subjectTerms('a dubnium limit'))
  expect(subjectTerms('Salisbury council')).not.toEqual(subjectTerms('Harare council'))
  expect(subjectTerms('the production of lithium')).toEqual(subjectTerms('producing lithium'))
  expect(subjectTerms('the decision of the employees')).toEqual(subjectTerms('the employees decided').toReversed())
  // An irregular form is its verb: "heard" is "hear", "sold" "sell", "built" "build".
  expect(subjectTerms('The tribunal heard the appeal')).toEqual(subjectTerms('The tribunal will hear the appeal'))
  expect(subjectTerms('The trust sold the hall')).toEqual(subjectTerms('The trust will sell the hall'))
  expect(subjectTerms('Builders built the wing')).toEqual(subjectTerms('Builders will build the wing'))
  // A negative prefix turns a stance word round; words that only begin like one are left alone.
  expect(opposed(polarity('Air-to-air units are eligible'), polarity('Air-to-air units remain ineligible'))).toBe(true)
  expect(opposed(polarity('The scheme will be extended'), polarity('The scheme was discontinued'))).toBe(true)
  expect(opposed(polarity('The deal was signed'), polarity('The deal has collapsed'))).toBe(true)
  expect(polarity('Installers increased their prices').directions).toEqual(['trend:up'])
  expect(polarity('The installation is finished').directions).toEqual([])
})

test('words that name built-in properties of objects are words like any other', () => {
  // "constructor" was read as a direction (a lookup reached Object.prototype) and polarity threw.
  for (const text of ['The constructor of the plant rose 4%.', 'Its __proto__ valueOf fell.']) {
    expect(() => polarity(text)).not.toThrow()
    expect(() => subjectTerms(text)).not.toThrow()
  }
  expect(polarity('The constructor of the plant rose 4%.')).toEqual({ negated: false, directions: ['trend:up'] })
  expect(subjectTerms('The constructor of the plant rose 4%.')).toEqual(['build', 'plant'])
  const claim = 'The constructor of the plant rose output 4% in 2026.'
  expect(verifyClaims([{ text: claim, quote: claim, sourceIds: [1] }], [{ id: 1, text: claim }]).claims).toHaveLength(1)
  // A unit per such a word is that word, not a function's source.
  expect(extractStatements('Fees were $5 per constructor.').figures).toEqual([{ value: 5, unit: 'usd/constructor' }])
})

test('a stemmer that remembers stems as the stemmer does, text after text', () => {
  const word = fc.constantFrom(
    'Sales',
    'rose',
    'fell',
    'ineligible',
    'approved',
    'cells',
    'costs',
    'not',
    "isn't",
    'the',
  )
  const stem = stemsOnce()
  fc.assert(
    fc.property(fc.array(word, { maxLength: 12 }), (words) => {
      const text = words.join(' ')
      expect(subjectTerms(text, stem)).toEqual(subjectTerms(text))
      expect(polarity(text, stem)).toEqual(polarity(text))
    }),
  )
})

const page = {
  id: 1,
  text: 'Sodium-ion cells cost $80/kWh in March 2026, the agency said. The plant will not open in 2028.',
}
const other = { id: 2, text: 'Heat pumps outsold gas boilers in Norway for the third year running.' }

test('a claim is shown only with a quote on a page it cites; miscited quotes go to the page that has them', () => {
  const { claims, integrity } = verifyClaims(
    [
      { text: 'Cells cost $80/kWh.', quote: 'Sodium-ion cells cost $80/kWh in March 2026', sourceIds: [1] },
      { text: 'Heat pumps lead in Norway.', quote: 'Heat pumps outsold gas boilers in Norway', sourceIds: [1] },
      { text: 'Cells cost $70/kWh.', quote: 'Sodium-ion cells cost $70/kWh in March 2026', sourceIds: [1] },
      { text: 'Cells cost $70/kWh.', quote: 'Sodium-ion cells cost $80/kWh in March 2026', sourceIds: [1] },
      { text: 'The plant will open in 2028.', quote: 'The plant will not open in 2028.', sourceIds: [1] },
      { text: 'Something.', quote: '', sourceIds: [1] },
      { text: 'Out of range.', quote: 'Wind farms in Denmark drew no bids', sourceIds: [99] },
      { text: 'Out of range, on a page.', quote: 'the agency said. The plant', sourceIds: [99] },
    ],
    [page, other, { id: 3, text: '' }],
  )
  expect(claims.map((claim) => [claim.text, claim.sourceIds])).toEqual([
    ['Cells cost $80/kWh.', [1]],
    ['Heat pumps lead in Norway.', [2]],
    // Worded as its quote's opposite: shown in the page's own words instead.
    ['The plant will not open in 2028.', [1]],
    ['Out of range, on a page.', [1]],
  ])
  expect(claims[0]?.quote).toBe('Sodium-ion cells cost $80/kWh in March 2026')
  // The $70 wording of the $80 quote became the page's words, which the first claim already shows.
  expect(integrity).toEqual({ claims: 8, shown: 4, droppedUnsupported: 3, recited: 2, ownWords: 2, offTopic: 0 })
})

test('a claim whose quote is junk but whose own words are on the page is shown with them as its quote', () => {
  const { claims, integrity } = verifyClaims(
    [
      {
        text: 'Heat pumps outsold gas boilers in Norway for the third year running.',
        quote: 'made up',
        sourceIds: [2],
      },
    ],
    [page, other],
  )
  expect(claims.map((claim) => claim.quote)).toEqual([
    'Heat pumps outsold gas boilers in Norway for the third year running.',
  ])
  expect(integrity).toMatchObject({ shown: 1, droppedUnsupported: 0 })
})

function known(id: string, text: string): KnownClaim {
  const [claim] = verifyClaims([{ text, quote: text, sourceIds: [1] }], [{ id: 1, text }]).claims as [VerifiedClaim]
  return { id, text, quote: text, statements: claim.statements, subject: claim.subject, polarity: claim.polarity }
}

function fresh(text: string): VerifiedClaim {
  return verifyClaims([{ text, quote: text, sourceIds: [1] }], [{ id: 1, text }]).claims[0] as VerifiedClaim
}

test('the rules tell a changed figure, a contradiction and a restatement from something new', async () => {
  const memory = [
    known('a', 'Sodium-ion cells cost $90/kWh at the end of 2025.'),
    known('b', 'The regulator approved the Northvolt merger in January 2026.'),
    known('c', 'Heat pumps outsold gas boilers in Norway for the third year running.'),
  ]
  const result = await classifyClaims(
    [
      fresh('Sodium-ion cells cost $80/kWh at the end of 2025.'),
      fresh('The regulator did not approve the Northvolt merger in January 2026.'),
      fresh('Heat pumps outsold gas boilers in Norway for the third year running.'),
      fresh('Offshore wind auctions in Denmark drew no bids this spring.'),
    ],
    memory,
  )
  expect(result.map((item) => [item.class, item.match?.id])).toEqual([
    ['updated', 'a'],
    ['contradicted', 'b'],
    ['confirmed', 'c'],
    ['new', undefined],
  ])
})

test('a judge that confirms a changed figure, or calls a verbatim restatement new, is overruled', async () => {
  const memory = [
    known('a', 'Sodium-ion cells cost $90/kWh at the end of 2025.'),
    known('c', 'Heat pumps outsold gas boilers in Norway.'),
  ]
  const result = await classifyClaims(
    [fresh('Sodium-ion cells cost $80/kWh at the end of 2025.'), fresh('Heat pumps outsold gas boilers in Norway.')],
    memory,
    async (items) =>
      items.map((_, index) =>
        index === 0 ? { index, class: 'confirmed', candidate: 0 } : { index, class: 'new', candidate: null },
      ),
  )
  expect(result.map((item) => item.class)).toEqual(['updated', 'confirmed'])
})

test('vectors fold to 256 unit dimensions, pack to 256 bytes, and keep their angles', () => {
  // mulberry32: a fixed pseudo-random sequence, so the vectors are the same every run.
  const random = (seed: number) => {
    let state = seed
    return Array.from({ length: 1536 }, () => {
      state = (state + 0x6d2b79f5) | 0
      let t = Math.imul(state ^ (state >>> 15), 1 | state)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5
    })
  }
  const a = random(1)
  const noise = random(3)
  const b = a.map((value, i) => value + 0.5 * (noise[i] as number))
  const c = random(2)
  const norm = (v: number[]) => Math.sqrt(v.reduce((sum, value) => sum + value * value, 0))
  const cosine = (x: number[], y: number[]) =>
    x.reduce((sum, value, i) => sum + value * (y[i] as number), 0) / (norm(x) * norm(y))
  const unpacked = (v: number[]) => unpackVector(packVector(v)) as number[]
  expect(Buffer.from(packVector(a), 'base64')).toHaveLength(256)
  expect(Math.hypot(...unpacked(a))).toBeCloseTo(1, 5)
  // Near stays near and far stays far after folding and one byte a dimension.
  expect(cosine(a, b)).toBeGreaterThan(0.8)
  expect(Math.abs(cosine(unpacked(a), unpacked(b)) - cosine(a, b))).toBeLessThan(0.1)
  expect(Math.abs(cosine(unpacked(a), unpacked(c)) - cosine(a, c))).toBeLessThan(0.15)
  expect(unpackVector('not a vector')).toBeUndefined()
})

test('a memory claim with no word in common but a close embedding is still a candidate for the judge', async () => {
  const memory = [{ ...known('a', 'The EU adopted the battery regulation.'), vector: [1, 0] }]
  const asked: string[][] = []
  const [result] = await classifyClaims(
    [{ ...fresh('Brussels finalised rules governing accumulators.'), vector: [0.99, 0.1] }],
    memory,
    async (items) => {
      asked.push(items.flatMap((item) => item.candidates.map((candidate) => candidate.text)))
      return [{ index: 0, class: 'confirmed', candidate: 0 }]
    },
  )
  expect(asked).toEqual([['The EU adopted the battery regulation.']])
  expect(result).toMatchObject({ class: 'confirmed', match: { id: 'a' } })
})

test('a changed figure the model paraphrased is matched by its quote, in the words memory quoted before', async () => {
  const quoted = (id: string, text: string, quote: string) => {
    const page = [{ id: 1, text: quote }]
    const claim = verifyClaims([{ text, quote, sourceIds: [1] }], page).claims[0] as VerifiedClaim
    return { ...claim, id }
  }
  const memory = [
    quoted(
      'a',
      'The German heat pump subsidy is capped at €8,300 for a single home.',
      'Homeowners in Germany can claim up to 8,300 euros in subsidy for a heat pump.',
    ),
    quoted('b', 'Dutch installers have a waiting list of 12 weeks for heat pumps.', 'Dutch installers wait 12 weeks.'),
  ]
  const claim = quoted(
    'x',
    'Germany pays a subsidy of up to €6,300 for each heat pump installation.',
    'Homeowners in Germany can claim up to 6,300 euros in subsidy for a heat pump.',
  )
  // A judge that slips and calls it new does not stand against quotes that differ only in the figure.
  const [result] = await classify([claim], memory, callsAllNew)
  expect(result).toMatchObject({ class: 'updated', match: { id: 'a' } })
})

test('the rules confirm only on positive evidence: a reversal in words they cannot read is new, beside what memory held', async () => {
  const memory = [known('grant', 'Lawmakers approved a $300 million loan for the tram extension.')]
  const [reversal] = await classifyClaims(
    [fresh('The council thought better of the $300 million loan for the tram extension.')],
    memory,
  )
  expect(reversal?.class).toBe('new')
  expect(reversal?.related?.id).toBe('grant')
  // The same figures in the same stance are still a restatement.
  const [again] = await classifyClaims(
    [fresh('A loan of $300 million for the tram extension was approved by lawmakers.')],
    memory,
  )
  expect([again?.class, again?.match?.id]).toEqual(['confirmed', 'grant'])
})

test('a judge is overruled only on hard evidence: another noun around the same number is not another fact', async () => {
  const memory = [
    known('jobs', 'Once running, the operation is expected to employ 420 people full-time, the company said.'),
    known('cost', 'A revised report puts the price of the extension at $247m, up from $212m in March.'),
    known('stake', 'Oskarsen Automotive Group has agreed to take a 19.9 per cent stake in the Kestrel Ridge project.'),
  ]
  const claims = [
    fresh('She repeated the promise of 420 full-time positions on site.'),
    fresh('The revised case was built around a price tag of $247m.'),
    fresh('A week earlier the carmaker, Oskarsen Automotive Group, walked away from the project.'),
  ]
  const verdicts: Array<'confirmed' | 'contradicted'> = ['confirmed', 'confirmed', 'contradicted']
  const asked: string[][] = []
  const result = await classifyClaims(claims, memory, async (items) => {
    asked.push(...items.map((item) => item.candidates.map((candidate) => candidate.text)))
    return items.map((item, index) => ({
      index,
      class: verdicts[claims.findIndex((claim) => claim.text === item.claim.text)] ?? 'new',
      candidate: 0,
    }))
  })
  expect(result.map((item) => [item.class, item.match?.id])).toEqual([
    ['confirmed', 'jobs'],
    ['confirmed', 'cost'],
    ['contradicted', 'stake'],
  ])
  // The same number is what made "420 positions" a candidate for "420 people" at all.
  expect(asked[0]?.[0]).toBe(memory[0]?.text)
})

test('a judge that calls the same figures an update, or a changed figure in the same stance a reversal, is overruled', async () => {
  const memory = [
    known('riders', 'The line carries 18,400 riders a day.'),
    known('price', 'The museum raised its ticket price to £12 in March.'),
  ]
  const result = await classifyClaims(
    [fresh('Some 18,400 riders a day use the line.'), fresh('The museum raised its ticket price to £14 in March.')],
    memory,
    async (items) =>
      items.map((_, index) => ({ index, class: index === 0 ? 'updated' : 'contradicted', candidate: 0 })),
  )
  expect(result.map((item) => [item.class, item.match?.id])).toEqual([
    ['confirmed', 'riders'],
    ['updated', 'price'],
  ])
})

test("a judge's match on a memory claim that states the same number stands, however few words they share", async () => {
  const memory = [
    known('cost', 'The scheme is now budgeted at 247 million dollars after ground surveys.'),
    known(
      'parking',
      'Once the line is finished, motorists will have 210 fewer places to leave their cars along the front.',
    ),
  ]
  const claim = fresh('Under the current design the front would lose 210 spaces, far fewer than first proposed.')
  let offered: string[] = []
  const [result] = await classifyClaims([claim], memory, async (items) => {
    offered = items[0]?.candidates.map((candidate) => candidate.text) ?? []
    return [{ index: 0, class: 'confirmed', candidate: offered.indexOf(memory[1]?.text as string) }]
  })
  expect(offered).toContain(memory[1]?.text)
  expect([result?.class, result?.match?.id]).toEqual(['confirmed', 'parking'])
})

test("the rules read a claim that gives memory's figure beside a new one as its update, in whatever words", async () => {
  const memory = [
    known('price', "The company has set velorastat's monthly list price at 690 dollars, below the injections."),
    known('plant', 'Corvane Therapeutics plans to spend $310m on a factory.'),
  ]
  const [result] = await classifyClaims(
    [fresh('A 30-day supply will now carry a list price of $545, down from $690.')],
    memory,
  )
  expect([result?.class, result?.match?.id]).toEqual(['updated', 'price'])
})

test('a stance is read from a verb or an adjective, never from a noun that shares its stem', () => {
  expect(polarity('The plans include a short branch to the ferry terminal at Gullet Quay.').directions).toEqual([])
  expect(polarity('Lawmakers set aside a $300 million grant for the line.').directions).toEqual([])
  expect(polarity('The permit was granted in March.').directions).toEqual(['stance:up'])
  expect(polarity('The deal was terminated in March.').directions).toEqual(['stance:down'])
  expect(polarity('Cells are ineligible for the subsidy.').directions).toEqual(['stance:down'])
  // Trends are read from any word: "a fall in sales" says as much as "sales fell".
  expect(polarity('A fall in sales followed.').directions).toEqual(['trend:down'])
})

test("a judge's reversal stands when the rules read no stance in either wording: that is no proof against it", async () => {
  const memory = [known('filing', 'The ministry has filed an application to widen the licence to teenagers.')]
  const [result] = await classifyClaims(
    [fresh('The ministry has pulled its application on teenagers for now.')],
    memory,
    async (items) => items.map((_, index) => ({ index, class: 'contradicted', candidate: 0 })),
  )
  expect([result?.class, result?.match?.id]).toEqual(['contradicted', 'filing'])
})

test("times of day and a length of time within a day may tell one day's hours: a judge's reversal stands", async () => {
  const memory = [known('hours', 'The library desk at the town hall will stay open 24 hours a day, all year round.')]
  const [result] = await classifyClaims(
    [
      fresh(
        'The library desk at the town hall will no longer open around the clock, and will shut between 9pm and 7am.',
      ),
    ],
    memory,
    async (items) => items.map((_, index) => ({ index, class: 'contradicted', candidate: 0 })),
  )
  expect([result?.class, result?.match?.id]).toEqual(['contradicted', 'hours'])
})

test('a firm hired ("is contracted to connect", "was contracted by") takes no fall; an economy that contracted fell', () => {
  expect(polarity('Dunlow Networks is contracted to connect 9,400 homes.').directions).toEqual([])
  expect(polarity('The builder was contracted by the council in May.').directions).toEqual([])
  expect(polarity('The economy contracted by 2% last year.').directions).toEqual(['trend:down'])
  expect(polarity('Output has contracted sharply.').directions).toEqual(['trend:down'])
  expect(polarity('Sales contracted to £4m.').directions).toEqual(['trend:down'])
})

test('counts of things named in other nouns may be one quantity; a count and a sum of money never are', async () => {
  const memory = [known('seats', 'The new arena will hold 31,000 seats.'), known('cost', 'The arena will cost $410m.')]
  const claim = fresh('The redesigned arena will take 28,500 spectators.')
  const judged = (target: string) =>
    classifyClaims([claim], memory, async (items) => [
      {
        index: 0,
        class: 'updated',
        candidate: items[0]?.candidates.findIndex((candidate) => candidate.text.includes(target)) ?? null,
      },
    ])
  const [seats] = await judged('seats')
  expect([seats?.class, seats?.match?.id]).toEqual(['updated', 'seats'])
  const [cost] = await judged('cost')
  expect(cost?.class).toBe('new')
})

test('a stance word used as a noun is part of the subject, and a count written in words is not', () => {
  const subject = subjectTerms('The line will have five new stops rather than six.')
  expect(subject).toContain('stop')
  expect(subject).not.toContain('five')
  expect(subject).not.toContain('six')
  // As a verb it takes a stance, and is no part of the subject.
  expect(subjectTerms('The council has stopped the works.')).not.toContain('stop')
})

test('a long sentence that holds most of a short claim is offered to the judge, however much else it says', async () => {
  const memory = [
    known(
      'builder',
      'Borrell Civil, picked in the spring after a two-year tender, will act as principal contractor for the whole eastern section of the route and its depot.',
    ),
    known('depot', 'The depot at Fenwick Yard will house twelve trams.'),
    known('route', 'The route runs for 6 km along the eastern shore.'),
  ]
  let offered: string[] = []
  await classifyClaims([fresh('Borrell Civil is building the line.')], memory, async (items) => {
    offered = items[0]?.candidates.map((candidate) => candidate.text) ?? []
    return [{ index: 0, class: 'new', candidate: null }]
  })
  expect(offered).toContain(memory[0]?.text)
})

test('a memory claim stating the same sum, or the same large count, is offered to the judge with no word in common', async () => {
  const memory = [
    known('bill', 'The club puts the bill for its new ground at £87m.'),
    known('staff', 'The firm employs 2,450 people worldwide.'),
    known('seats', 'The stand will have 12 rows.'),
  ]
  const claims = [
    fresh('A loan would pay for about a third of the 87 million pound price tag.'),
    fresh('Its payroll numbers 2,450, the annual report says.'),
  ]
  const offered: string[][] = []
  const result = await classifyClaims(claims, memory, async (items) => {
    offered.push(...items.map((item) => item.candidates.map((candidate) => candidate.text)))
    return items.map((_, index) => ({ index, class: 'confirmed', candidate: 0 }))
  })
  expect(offered).toEqual([[memory[0]?.text], [memory[1]?.text]])
  expect(result.map((item) => [item.class, item.match?.id])).toEqual([
    ['confirmed', 'bill'],
    ['confirmed', 'staff'],
  ])
})

test("a judge's 'confirmed' the figures disprove is an update only of a claim plainly about the same thing", async () => {
  const memory = [known('pontoons', "The marina's old pontoons held 240 boats, the harbour authority said.")]
  const [result] = await classifyClaims(
    [fresh('Winter berthing fees were waived for 180 boats after the storm.')],
    memory,
    async (items) => items.map((_, index) => ({ index, class: 'confirmed', candidate: 0 })),
  )
  expect([result?.class, result?.match?.id, result?.related?.id]).toEqual(['new', undefined, 'pontoons'])
  // Plainly the same thing: the changed figure is an update (as the rules would say themselves).
  const [same] = await classifyClaims(
    [fresh("The marina's old pontoons held 260 boats, the harbour authority said.")],
    memory,
    async (items) => items.map((_, index) => ({ index, class: 'confirmed', candidate: 0 })),
  )
  expect([same?.class, same?.match?.id]).toEqual(['updated', 'pontoons'])
})

test('a phrasal verb, an irregular form and a stance taken in the main clause are read as a newsroom writes them', () => {
  const stance = (text: string) => polarity(text).directions.filter((way) => way.startsWith('stance:'))
  // The particle belongs to the verb: "voted down" rejects, it does not fall.
  expect(polarity('Councillors voted down the revised business case by 26 votes to 22.').directions).toEqual([
    'stance:down',
  ])
  expect(stance('The committee voted it down on Tuesday.')).toEqual(['stance:down'])
  // A phrasal verb takes a stance on a stance as a verb of one word does: throwing out an appeal is
  // rejecting it, and going ahead with a closure, or backing out of one, is a stance on the closure.
  expect(stance('The board threw out the appeal.')).toEqual(stance('The board rejected the appeal.'))
  expect(stance('The trust will go ahead with its plan to close the ward.')).toEqual(['stance:down'])
  expect(stance('The firm backed out of the plan to close the site.')).toEqual(['stance:up'])
  expect(stance('The cabinet agreed to go ahead with a formal plan to close the school.')).toEqual(['stance:down'])
  // A state held until a time is the date it ends, no stance either way; what an "if" clause
  // supposes is asserted by no one.
  expect(stance('The school will stay open until the summer of 2028.')).toEqual([])
  expect(stance('The bridge will remain closed to traffic until June.')).toEqual([])
  expect(stance('The line will stay open.')).toEqual(['stance:up'])
  expect(stance('If the closure goes ahead, the school will stay open until the summer of 2028.')).toEqual([])
  expect(stance('The Senate waved the bill through.')).toEqual(['stance:up'])
  expect(stance('The Senate voted through the bill.')).toEqual(['stance:up'])
  // Irregular forms are read by their lemma.
  expect(stance('Oskarsen Automotive Group withdrew from its planned equity deal.')).toEqual(['stance:down'])
  // A stance in a subordinate clause gives way to the main clause's.
  expect(
    stance('A state judge has halted the mine, setting aside the permit that the state board granted in March.'),
  ).toEqual(['stance:down'])
  expect(stance('Councillors rejected the plan, eight months after backing the original scheme.')).toEqual([
    'stance:down',
  ])
  // What was said after "said that" is the news, not a subordinate aside.
  expect(stance('The company said that it had withdrawn the application.')).toEqual(['stance:down'])
  // Alone in a subordinate clause, a stance is still the sentence's.
  expect(stance('The permit that the board granted in March covers the whole ridge.')).toEqual(['stance:up'])
  // "Set aside" is a reserve of money, no stance; a ruling or a permission set aside is quashed.
  expect(stance('Lawmakers set aside a $300 million grant for the line.')).toEqual([])
  expect(stance('A High Court judge set aside the planning consent for the extension.')).toEqual(['stance:down'])
  // A denial withdrawn accepts.
  expect(
    opposed(
      polarity('The company has withdrawn its denial and accepted that its creamery was the source'),
      polarity('The company has denied that its creamery is the source'),
    ),
  ).toBe(true)
  // An opposition dropped accepts.
  expect(
    opposed(
      polarity("The residents' group that fought the quarry has dropped its opposition."),
      polarity("The residents' group opposes the quarry's extension."),
    ),
  ).toBe(true)
})

test('a decision is a stance someone takes, not what happens; a quote, a question and words to the reader are no report', () => {
  expect(decides('The planning committee approved the stadium by eight votes to three.')).toBe(true)
  expect(decides('Halvorsen Energy pulled out of its naming-rights agreement with the club.')).toBe(true)
  expect(decides('Councillors voted the scheme down.')).toBe(true)
  // Dropping a thing one pursued is a decision, as scrapping it is; a figure that drops is no one's.
  expect(decides('Hollins Town Council has dropped its legal action against the board.')).toBe(true)
  expect(decides('House prices dropped 4% last month.')).toBe(false)
  expect(decides('Rovers open their League Two campaign at home to Castlebury Town.')).toBe(false)
  expect(decides('Some supporters were disappointed to lose the upper tier.')).toBe(false)
  expect(decides('The pier reopened to walkers after the storm.')).toBe(false)
  // The sentence's own decision is its main clause's, and one taken, not one that may be.
  expect(decides('The board could reject the offer next month.')).toBe(false)
  expect(decides('The council in May approved the plan.')).toBe(true)
  expect(decides('Ms Quist, the lawyer for the residents, said the coalition would oppose the appeal.')).toBe(false)
  expect(decides('Jean Carrow, who led the campaign, thanked everyone who signed the petition.')).toBe(false)
  expect(decides('The company said it had withdrawn the application.')).toBe(true)
  expect(decides('The board voted on Tuesday to grant Cinderbrook a mining permit.')).toBe(true)
})

test('a verb of deciding makes the stance it governs a decision: voted to, decided not to, a plan scrapped', () => {
  expect(decides('The trustees voted last week to close the reading room.')).toBe(true)
  expect(decides('The parish council voted against the wind turbine.')).toBe(true)
  expect(polarity('The parish council voted against the wind turbine.').directions).toEqual(['stance:down'])
  expect(polarity('Councillors voted for the bypass by 31 votes to 17.').directions).toEqual(['stance:up'])
  expect(decides('The club decided not to renew the lease on the ground.')).toBe(true)
  // A plan to close, scrapped, is read as "decided not to close": a decision, for the branch.
  expect(decides('The bank has scrapped its plan to close the branch.')).toBe(true)
  expect(decides('Members could vote to dissolve the society next year.')).toBe(false)
  expect(decides('Residents who voted for the bypass were angry at the delay.')).toBe(false)
  expect(decides('The insurer decided it could wait no more.')).toBe(false)
})

test('a party that binds itself takes a stance: a pledge withdrawn is a pledge turned round', async () => {
  expect(polarity('A further £2.5m has been pledged by the Pellow Foundation.').directions).toEqual(['stance:up'])
  const memory = [
    known(
      'pledge',
      'A further £2.5m has been pledged by the Pellow Foundation, the charitable arm of the Kessing shipping family.',
    ),
  ]
  // Few words in common, but the same sum, and the decision turned round.
  const [withdrawn] = await classifyClaims(
    [
      fresh(
        'The Pellow Foundation has withdrawn its £2.5 million pledge to the museum, citing the rising cost of the works.',
      ),
    ],
    memory,
  )
  expect([withdrawn?.class, withdrawn?.match?.id]).toEqual(['contradicted', 'pledge'])
})

test('a decision turned round is a reversal whatever the tallies, unless each names a thing the other does not', async () => {
  const memory = [
    known(
      'vote',
      'After a four-hour debate, members approved the business case for the harbourside extension by 31 votes to 17.',
    ),
    known('valencia', 'Aerotherm will build its second heat pump plant in Valencia.'),
  ]
  const [vote, texas] = await classifyClaims(
    [
      fresh('Councillors voted down the revised business case for the harbourside extension by 26 votes to 22.'),
      fresh('Aerotherm has scrapped its heat pump plant in Texas.'),
    ],
    memory,
  )
  expect([vote?.class, vote?.match?.id]).toEqual(['contradicted', 'vote'])
  expect(texas?.class).toBe('new')
})

test('a claim that announces a change of a figure or a date memory states is its revision, in whatever words', async () => {
  const memory = [
    known('cost', 'The club puts the cost of the build at £142m.'),
    known('deal', 'The naming deal will bring in £25m over ten years.'),
    known('share', "Aerotherm's share of Europe's heat pump market is 15 percent."),
    known('start', '“We intend to be producing lithium at Kestrel Ridge in the fourth quarter of 2027,” she said.'),
    known('plant', 'Voltfjord will commission its iron-air pilot plant in June 2027.'),
    known('staff', 'The company, which is headquartered in Tallisford, employs 3,200 people worldwide.'),
  ]
  const [bill, poland, production, grid, hotel, staff] = await classifyClaims(
    [
      // No word in common, but "climbs to" says the sum replaced one, and £142m is the near one.
      fresh('The deal lands as the bill for the ground climbs to 158 million pounds.'),
      // Shares are many in one story: a changed one needs a word in common to revise another.
      fresh('Unemployment in the region has risen to 23 percent.'),
      // Memory's date beside a later one.
      fresh('First production is now targeted for the second quarter of 2028, rather than the final quarter of 2027.'),
      // A date of another thing, with no word in common: new.
      fresh('The revised grid code for storage operators in Germany takes effect in 2028.'),
      // Money, but no change announced: new.
      fresh('A £150m hotel is planned beside the ground.'),
      // A name in a clause that only tells more ("which is headquartered in Tallisford") says not
      // which company is meant: Corvane's revised headcount is no other fact for it.
      fresh('Corvane now employs 3,650 people, after a hiring round tied to the launch.'),
    ],
    memory,
  )
  expect([staff?.class, staff?.match?.id]).toEqual(['updated', 'staff'])
  expect([bill?.class, bill?.match?.id]).toEqual(['updated', 'cost'])
  expect([poland?.class, poland?.match?.id]).toEqual(['new', undefined])
  expect([production?.class, production?.match?.id]).toEqual(['updated', 'start'])
  expect([grid?.class, grid?.match?.id]).toEqual(['new', undefined])
  expect([hotel?.class, hotel?.match?.id]).toEqual(['new', undefined])
})

test('a count said to have moved is its update under another noun; the words say so as newsrooms write them', async () => {
  const memory = [
    known('sailings', 'The ferry makes eight return sailings a day between Pellow and Ansty.'),
    known('jobs', 'As many as 120 jobs could go at the Harwick printing works, the company has warned.'),
    known('seats', 'The new concert hall in Dunmere will seat 1,800 people.'),
    known('opening', 'The concert hall is due to open in the spring of 2029.'),
    known('plant', 'The recycling plant on the Moor Lane estate is expected to take its first waste in 2030.'),
  ]
  const [crossings, posts, capacity, aimed, slipped, engineers, awards, members] = await classifyClaims(
    [
      // "Down to", another noun for the same timetable.
      fresh('The ferry is down to six crossings a day while two of its engineers are off sick.'),
      // Against what was said before, another noun for the same headcount.
      fresh('In the end 112 posts went at the printing works, fewer than the company had warned.'),
      // A verb of moving, then "to" and the figure now; the number names no noun of its own.
      fresh("The concert hall's capacity has been cut to 1,650 to make room for more wheelchair spaces."),
      // The plan told as what was aimed at before: the date it replaces is memory's.
      fresh('The council had been working towards opening the concert hall in the autumn of 2030.'),
      // A project's date slips by years: three is still one date moved.
      fresh('The operator now says the recycling plant could not open before 2033.'),
      // Counts that nothing says moved are other facts, whatever they share.
      fresh('The ferry company has hired 6 more engineers this winter.'),
      fresh('Eleven staff at the printing works were given long-service awards.'),
      // A count said to have moved, on a subject memory shares no word of.
      fresh('The union says its membership has risen to 140.'),
    ],
    memory,
  )
  expect([crossings?.class, crossings?.match?.id]).toEqual(['updated', 'sailings'])
  expect([posts?.class, posts?.match?.id]).toEqual(['updated', 'jobs'])
  expect([capacity?.class, capacity?.match?.id]).toEqual(['updated', 'seats'])
  expect([aimed?.class, aimed?.match?.id]).toEqual(['updated', 'opening'])
  expect([slipped?.class, slipped?.match?.id]).toEqual(['updated', 'plant'])
  expect(engineers?.class).toBe('new')
  expect(awards?.class).toBe('new')
  expect(members?.class).toBe('new')
})

test('a building named for what it is, is the thing a decision closes or keeps; the place it stands in is not', async () => {
  const memory = [
    known(
      'lodge',
      'Greystone Lodge, on the edge of Harwell, is one of three care homes Brenley Council proposes to shut.',
    ),
    known('court', 'Meadow Court in Harwell is also on the list for closure, the council said.'),
    known('saving', 'The council expects to save £2.1m a year.'),
  ]
  const [kept, dayCentre] = await classifyClaims(
    [
      fresh('The council has shelved its plan to close Greystone Lodge, and families in Harwell can rest easier.'),
      // Another thing, in the same town.
      fresh('The council has shelved its plan to close the day centre on Harwell Road.'),
    ],
    memory,
  )
  expect([kept?.class, kept?.match?.id]).toEqual(['contradicted', 'lodge'])
  expect(dayCentre?.class).toBe('new')
})

test('a telling of a change the rules matched in another telling of the run is that change; a claim that tells another thing is not', async () => {
  const memory = [
    known('sale', 'Carn Valley Council approved the sale of the Mill Street depot to Ardley Homes for £2.4m in March.'),
    known('empty', 'The depot has stood empty since the buses moved out in 2019.'),
    known('sailings', 'The ferry makes six return sailings a day between Pellow and Ansty.'),
    known('built', 'The ferry was built in 1998 and carries 40 cars.'),
  ]
  const [cancelled, calledOff, showHome, crossings, fewer, hired] = await classifyClaims(
    [
      fresh('Carn Valley Council has cancelled the sale of the Mill Street depot to Ardley Homes.'),
      // Shares little with memory's words, much with the telling above.
      fresh('The sale has been called off, leaving the builder to look elsewhere for land.'),
      fresh('Ardley Homes has opened a show home in the village.'),
      fresh('The ferry is down to five crossings a day while two engineers are off sick.'),
      fresh('Islanders will have five sailings a day until the engineers are back at work.'),
      fresh('The ferry company has hired a new engineer.'),
    ],
    memory,
  )
  expect([cancelled?.class, cancelled?.match?.id]).toEqual(['contradicted', 'sale'])
  expect([calledOff?.class, calledOff?.match?.id]).toEqual(['contradicted', 'sale'])
  expect(showHome?.class).toBe('new')
  expect([crossings?.class, crossings?.match?.id]).toEqual(['updated', 'sailings'])
  expect([fewer?.class, fewer?.match?.id]).toEqual(['updated', 'sailings'])
  expect(hired?.class).toBe('new')

  // A judge's "new" was read in the claim's own words: a sibling's verdict does not overrule it.
  const judged = await classify(
    [
      fresh('Carn Valley Council has cancelled the sale of the Mill Street depot to Ardley Homes.'),
      fresh('The sale has been called off, leaving the builder to look elsewhere for land.'),
    ],
    memory,
    callsAllNew,
  )
  expect(judged[1]?.class).toBe('new')

  // A bare year in a clause about a person agrees with any day of a date with no year: no telling.
  const dated = await classifyClaims(
    [
      fresh('The new winter timetable will now start on 5 April, later than planned.'),
      fresh('Ruth Pardoe, who joined the ferry company in 2009, will run the new winter timetable.'),
    ],
    [known('timetable', "The ferry's new winter timetable starts on 1 March 2027."), ...memory],
  )
  expect([dated[0]?.class, dated[0]?.match?.id]).toEqual(['updated', 'timetable'])
  expect(dated[1]?.class).toBe('new')
})

test('a process that opens or closes on a date runs its course: no one decided anything; a factory that closes is closed', () => {
  const stances = (text: string) => polarity(text).directions.filter((direction) => direction.startsWith('stance:'))
  expect(stances('The consultation on the future of the library will now close on 25 April.')).toEqual([])
  expect(stances('The ballot closes on Friday.')).toEqual([])
  expect(stances('The public inquiry will open on 18 May.')).toEqual([])
  expect(polarity('The factory will close on 30 September.').directions).toContain('stance:down')
  expect(polarity('The council will close the library in May.').directions).toContain('stance:down')
})

test('a "not" set after its clause denies the alternative it names: the clause keeps its stance, and a date moved is an update', async () => {
  expect(polarity('This is a pause, not a cancellation, she said.').negated).toBe(false)
  expect(polarity('The council wants jobs on that land, not flats.').negated).toBe(false)
  expect(polarity('The terminal repairs will now start in February 2027, not October 2026.').negated).toBe(false)
  // A "not" before a verb still turns its clause's stance round, after a comma or not.
  expect(polarity('The plant will not open in 2027.').directions).toEqual(['stance:down'])
  expect(polarity('The board met on Tuesday, and, not surprisingly, did not approve the permit.').directions).toEqual([
    'stance:down',
  ])
  const memory = [known('dock', 'Repairs to the ferry terminal will start in October 2026.')]
  const [moved] = await classifyClaims(
    [fresh('The terminal repairs will now start in February 2027, not October 2026.')],
    memory,
  )
  expect(moved?.class).toBe('updated')
})

test('a negation turns round the stance of its own clause only; a refusal is one stance however it is worded', async () => {
  const stance = (text: string) => polarity(text)
  // "did not approve" refuses: one stance, no separate negation.
  expect(stance('The board did not approve the permit.')).toEqual({ negated: false, directions: ['stance:down'] })
  // The "not" of another clause leaves "shelved" as it is.
  expect(stance('The branch was shelved in July and is not part of the new plan.').directions).toEqual(['stance:down'])
  const memory = [known('exit', 'Halvorsen Energy pulled out of its naming-rights agreement with the club.')]
  // "withdrew" and "pulled out" are one stance: no reversal.
  const [again] = await classifyClaims(
    [
      fresh(
        'The society fills the gap left by Halvorsen Energy, which withdrew from its naming-rights agreement with the club.',
      ),
    ],
    memory,
  )
  expect(again?.class).not.toBe('contradicted')
})

test('a claim that says a figure or a date memory states still holds is that claim again, unless it turns it round', async () => {
  const memory = [
    known('opening', 'Officers told the meeting that trams should be running to the waterfront by December 2028.'),
    known('seats', 'The council says the new stadium will hold 24,000 fans.'),
  ]
  const [still, remains, scrapped, later] = await classifyClaims(
    [
      // "Still" and memory's own date, on a subject they share a word of: no news.
      fresh('The programme still has passenger trams running in December 2028.'),
      fresh('The planned capacity of the stadium remains 24,000 fans.'),
      // The same date, turned round: not a reaffirmation.
      fresh('Trams will still not be running by December 2028.'),
      // A date memory does not state is no reaffirmation, whatever the word.
      fresh('Trams are still expected to run by March 2029.'),
    ],
    memory,
  )
  expect([still?.class, still?.match?.id]).toEqual(['confirmed', 'opening'])
  expect([remains?.class, remains?.match?.id]).toEqual(['confirmed', 'seats'])
  expect(scrapped?.class).not.toBe('confirmed')
  expect(later?.class).not.toBe('confirmed')
})

test('a sum memory states, with nothing memory lacks and in its stance, is that fact again however few words they share', async () => {
  const memory = [known('budget', 'It is budgeted at £180m.'), known('jobs', 'The plant will employ 420 people.')]
  const [again, more, other] = await classifyClaims(
    [
      fresh('Pellan Water had set aside 180 million pounds to build it.'),
      // A figure memory does not hold is not that fact again.
      fresh('Pellan Water had set aside 180 million pounds to build it and 12 million pounds to run it.'),
      // A small count is no identity: it meets by chance.
      fresh('The company named 4 new directors.'),
    ],
    memory,
  )
  expect([again?.class, again?.match?.id]).toEqual(['confirmed', 'budget'])
  expect(more?.class).not.toBe('confirmed')
  expect(other?.class).toBe('new')
  // A count is stated by the same number under another noun.
  const [workforce] = await classifyClaims(
    [fresh('Once the site is running, the firm expects a permanent workforce of 420.')],
    memory,
  )
  expect([workforce?.class, workforce?.match?.id]).toEqual(['confirmed', 'jobs'])
  // Evidence that stands against a judge's slip: it called the same sum in other words new.
  const [judged] = await classify(
    [fresh('Pellan Water had set aside 180 million pounds to build it.')],
    memory,
    callsAllNew,
  )
  expect([judged?.class, judged?.match?.id]).toEqual(['confirmed', 'budget'])
})

test('a date that changed on a subject both name is an update, and "not until" says when, not whether', async () => {
  expect(polarity("The museum won't reopen until spring 2028.")).toEqual({ negated: false, directions: [] })
  // "Not ... before" a time says when; before anything else it is a negation still.
  expect(polarity('The plant will not open before 2028.').negated).toBe(false)
  expect(polarity('The company did not consult residents before submitting the plan.').negated).toBe(true)
  const memory = [
    known('opening', "Officers told the meeting that trams should be running to Mariner's Point by December 2028."),
  ]
  const [later] = await classifyClaims(
    [fresh("Officers now say trams will not be running to Mariner's Point until June 2029.")],
    memory,
  )
  expect([later?.class, later?.match?.id]).toEqual(['updated', 'opening'])
  // A sentence that wraps the date in much else shares fewer words, and is still its update.
  const [depot] = await classifyClaims(
    [
      fresh(
        'The tram depot on Harbour Road, where the trams will be cleaned and repaired overnight, will be finished in September 2027.',
      ),
    ],
    [
      known(
        'depot',
        'The new tram depot on Harbour Road is due to be finished by March 2027, officers said in a report.',
      ),
    ],
  )
  expect([depot?.class, depot?.match?.id]).toEqual(['updated', 'depot'])
})

test('the memory claim whose date a claim says it moved is offered to the judge, among many with dates of other things', async () => {
  const memory = [
    known('start', 'Management reiterated guidance for first production in late 2027.'),
    known('copper', 'The mine aims to start producing copper as well as lithium.'),
    known('shifts', 'Producing at the mine will start with one shift and aims for three.'),
    known('crews', 'The mine aims to start hiring crews for producing lithium soon.'),
    known('trucks', 'Trucks will start carrying what the mine is producing to the port.'),
    // Closer in words, and with a date to compare, but one the claim does not say it moved.
    known('ruling', 'The mine aims to start producing once a court rules on it in the latter half of 2029.'),
    known('water', 'Producing lithium at the mine aims to use less water from the start.'),
  ]
  const offered: string[][] = []
  const [moved] = await classifyClaims(
    [fresh('The mine now aims to start producing in the latter half of 2029 at the earliest.')],
    memory,
    async (items) => {
      offered.push(...items.map((item) => item.candidates.map((candidate) => candidate.text)))
      const at = items[0]?.candidates.findIndex((candidate) => candidate.text === memory[0]?.text) ?? -1
      return [{ index: 0, class: at >= 0 ? 'updated' : 'new', candidate: at >= 0 ? at : null }]
    },
  )
  expect(offered[0]).toContain(memory[0]?.text)
  expect(moved?.class).not.toBe('new')
})

/** A judge that matches each claim, by its text, with the memory claim of that text, in memory's numbering. */
function judgeMatching(answers: Record<string, { class: Verdict['class']; memory: string }>) {
  const requests: JudgeRequest[] = []
  const judge = async (request: JudgeRequest): Promise<Verdict[]> => {
    requests.push(request)
    return request.items.map((item, index) => {
      const answer = answers[item.claim.text]
      const at = answer ? request.memory.findIndex((known) => known.text === answer.memory) : -1
      return at >= 0 && answer
        ? { index, class: answer.class, candidate: at }
        : { index, class: 'new', candidate: null }
    })
  }
  return { judge, requests }
}

test('the judge reads all of memory: a claim that shares no word with the memory claim it changes is asked, and its match stands when the two read so', async () => {
  const memory = [
    known('start', 'The new calendar begins on Aug. 24.'),
    known(
      'teens',
      "The company has filed an application to extend velorastat's approval to adolescents aged 12 to 17.",
    ),
    known('cover', 'Harbrook Mutual said it would cover velorastat for members who tried two older medicines.'),
  ]
  const claims = [
    fresh('Opening day is now Tuesday, Sept. 8, after the district pushed the start back earlier this month.'),
    fresh('Corvane drops bid to widen migraine pill to teenagers'),
    fresh('Insurer turns down new migraine pill, leaving patients facing the full cost'),
  ]
  const { judge, requests } = judgeMatching({
    [claims[0]?.text as string]: { class: 'updated', memory: memory[0]?.text as string },
    [claims[1]?.text as string]: { class: 'contradicted', memory: memory[1]?.text as string },
    [claims[2]?.text as string]: { class: 'contradicted', memory: memory[2]?.text as string },
  })
  const result = await classify(claims, memory, judge)
  // The rules alone find none of them: no word in common.
  const ruled = await classify(claims, memory)
  expect(ruled.map((item) => item.class)).toEqual(['new', 'new', 'new'])
  expect(requests[0]?.memory.map((known) => known.text)).toEqual(memory.map((known) => known.text))
  expect(requests[0]?.items).toHaveLength(3)
  expect(result.map((item) => [item.class, item.match?.id])).toEqual([
    ['updated', 'start'],
    ['contradicted', 'teens'],
    ['contradicted', 'cover'],
  ])
})

test("a judge's match beyond the words that does not read as its verdict is no match: a judge at random hides nothing behind memory", async () => {
  const memory = [
    known('ramp', 'The council is spending 4.1 million pounds on a new vehicle ramp at Skerrin.'),
    known('fare', 'A return ticket for an adult is £14.50.'),
  ]
  const claims = [
    fresh('The Marram left the Ardveck Marine yard under her own power to begin sea trials.'),
    fresh('Crew shortages have cut the timetable to five crossings a day.'),
  ]
  for (const verdict of ['confirmed', 'updated', 'contradicted'] as const) {
    const { judge } = judgeMatching({
      [claims[0]?.text as string]: { class: verdict, memory: memory[0]?.text as string },
      [claims[1]?.text as string]: { class: verdict, memory: memory[1]?.text as string },
    })
    const result = await classify(claims, memory, judge)
    expect(result.map((item) => item.class)).toEqual(['new', 'new'])
  }
})

/** A second reading that answers each pair from `answers` (by the claim's text), and records what it was asked. */
function secondReadingOf(answers: Record<string, Verdict['class']>) {
  const asked: PairRequest['pairs'][] = []
  const reading: PairJudge = async ({ pairs }) => {
    asked.push(pairs)
    return pairs.map((pair, index) => ({ index, class: answers[pair.claim.text] ?? 'new' }))
  }
  return { reading, asked }
}

test("a judge's match the rules find no tie to stands when a second reading of the pair alone gives the same verdict", async () => {
  const memory = [
    known('ship', 'The replacement ferry is due to enter service in September 2026.'),
    known('fare', 'A return ticket for an adult is £14.50.'),
  ]
  // No word, number or date in common: the rules alone cannot tell a careful judge from a slip.
  const claim = fresh('There will be no new boat this year, the operator said.')
  const { judge } = judgeMatching({ [claim.text]: { class: 'confirmed', memory: memory[0]?.text as string } })
  expect((await classify([claim], memory, judge)).map((item) => item.class)).toEqual(['new'])

  const agrees = secondReadingOf({ [claim.text]: 'confirmed' })
  const [kept] = await classify([claim], memory, judge, agrees.reading)
  expect([kept?.class, kept?.match?.id]).toEqual(['confirmed', 'ship'])
  // Asked about that one pair, with nothing else of memory beside it.
  expect(agrees.asked).toEqual([
    [{ claim: { text: claim.text, quote: claim.quote }, known: { text: memory[0]?.text, quote: memory[0]?.quote } }],
  ])

  // Another answer, or none, leaves the rules to decide.
  for (const answer of ['new', 'updated', 'contradicted'] as const) {
    const other = secondReadingOf({ [claim.text]: answer })
    expect((await classify([claim], memory, judge, other.reading)).map((item) => item.class)).toEqual(['new'])
  }
  const failing: PairJudge = async () => {
    throw new Error('the model is down')
  }
  expect((await classify([claim], memory, judge, failing)).map((item) => item.class)).toEqual(['new'])
})

test("the judge's 'new' against a claim the rules read as memory's, unsure, gives way when a second reading finds what the rules found", async () => {
  const memory = [known('dock', 'The ferry terminal will close for repairs in October 2026.')]
  const claim = fresh('The terminal now expects to shut in February 2027.')
  const rules = await classify([claim], memory)
  expect(rules.map((item) => item.class)).toEqual(['updated'])
  // The rules are not sure of it: the judge's "new" stands against them alone.
  expect((await classify([claim], memory, callsAllNew)).map((item) => item.class)).toEqual(['new'])
  const agrees = secondReadingOf({ [claim.text]: 'updated' })
  const [read] = await classify([claim], memory, callsAllNew, agrees.reading)
  expect([read?.class, read?.match?.id]).toEqual(['updated', 'dock'])
  const disagrees = secondReadingOf({ [claim.text]: 'confirmed' })
  expect((await classify([claim], memory, callsAllNew, disagrees.reading)).map((item) => item.class)).toEqual(['new'])
})

test('a second reading is asked only where the judge and the rules disagree, all such claims in one request', async () => {
  const memory = [
    known('ship', 'The replacement ferry is due to enter service in September 2026.'),
    known('fare', 'A return ticket for an adult is £14.50.'),
  ]
  const agreed = fresh('A return ticket for an adult now costs £16.')
  const disputed = [
    fresh('There will be no new boat this year, the operator said.'),
    fresh('The Marram left the Ardveck yard under her own power to begin sea trials.'),
  ]
  const { judge } = judgeMatching({
    [agreed.text]: { class: 'updated', memory: memory[1]?.text as string },
    [disputed[0]?.text as string]: { class: 'confirmed', memory: memory[0]?.text as string },
    [disputed[1]?.text as string]: { class: 'confirmed', memory: memory[0]?.text as string },
  })
  const { reading, asked } = secondReadingOf({ [disputed[0]?.text as string]: 'confirmed' })
  const result = await classify([agreed, ...disputed], memory, judge, reading)
  expect(result.map((item) => item.class)).toEqual(['updated', 'confirmed', 'new'])
  expect(asked.map((pairs) => pairs.map((pair) => pair.claim.text))).toEqual([disputed.map((claim) => claim.text)])
  // Nothing disputed, nothing asked.
  const quiet = secondReadingOf({})
  await classify([agreed], memory, judge, quiet.reading)
  expect(quiet.asked).toEqual([])
})

test('a judge is shown memory within its budget, each claim closest memory claims first, and named the closest', async () => {
  const filler = Array.from({ length: 400 }, (_, index) =>
    known(`f${index}`, `Harbour committee minute ${index} recorded routine maintenance of buoys and lights.`),
  )
  const target = known('grant', 'The regional board awarded the tram extension a grant of $48m.')
  const memory = [...filler, target]
  const { judge, requests } = judgeMatching({})
  await classify([fresh('The tram extension grant of $48m was confirmed by the regional board.')], memory, judge)
  const shown = requests[0]?.memory ?? []
  const chars = shown.reduce((sum, known) => sum + known.text.length, 0)
  expect(chars).toBeLessThanOrEqual(JUDGE_MEMORY_CHARS)
  expect(shown.length).toBeLessThan(memory.length)
  expect(shown[0]?.text).toBe(target.text)
  expect(requests[0]?.items[0]?.closest).toContain(0)
})

test('a measure restated at another scale, or a share in words of a percentage, is that fact again', async () => {
  const memory = [
    known('water', "Cinderbrook's plant would use 3.1 billion litres of water a year, according to its permit."),
    known('survey', 'A district survey in February found that 58% of parents supported a four-day week.'),
    known('output', 'At full tilt it is designed to turn out 40,000 tonnes of lithium carbonate a year.'),
  ]
  const [water, survey, output, trimmed] = await classifyClaims(
    [
      fresh("The refinery's planned draw of 3.1 gigalitres a year, the judge wrote, had been accepted."),
      fresh('Nearly three in five parents told the district in a February questionnaire that they backed it.'),
      fresh('Once it reaches capacity, Kestrel Ridge would produce about 40kt of lithium carbonate annually.'),
      // Another value of the same measure, said to have changed, is its update.
      fresh('The company now plans to produce 32kt per annum, after it trimmed the mine plan.'),
    ],
    memory,
  )
  expect([water?.class, water?.match?.id]).toEqual(['confirmed', 'water'])
  expect([survey?.class, survey?.match?.id]).toEqual(['confirmed', 'survey'])
  expect([output?.class, output?.match?.id]).toEqual(['confirmed', 'output'])
  expect([trimmed?.class, trimmed?.match?.id]).toEqual(['updated', 'output'])
  // A share that does not round to memory's percentage is not that fact.
  const [fewer] = await classifyClaims([fresh('Only two in five parents now back the shorter week.')], memory)
  expect(fewer?.class).not.toBe('confirmed')
  // A share in words meets a percentage by chance: no restatement on the figure alone, with no word
  // of one subject; a judge that read the two as one fact stands on it.
  const shares = [
    known('demand', "Its output would cover roughly a fifth of the valley's demand in a dry summer."),
    known('leaks', 'Customers are asked to let their gardens die while nearly a quarter of their water seeps away.'),
  ]
  const [full] = await classifyClaims([fresh('The reservoir is now just 21 per cent full.')], shares)
  expect(full?.class).toBe('new')
  const judged = async (request: JudgeRequest) => [
    {
      index: 0,
      class: 'confirmed' as const,
      candidate: request.memory.findIndex(({ text }) => text.includes('seeps')),
    },
  ]
  const [leaked] = await classify(
    [fresh('Nobody disputes that 23% of the supply leaked away before it reached a home.')],
    shares,
    judged,
  )
  expect([leaked?.class, leaked?.match?.id]).toEqual(['confirmed', 'leaks'])
  // Two shares in words meet by chance: "a third of its sales" is no "a third of the cost".
  const [third] = await classifyClaims(
    [fresh('The sodium-ion recycling plant works at a third of the cost of lithium-ion recycling.')],
    [known('sales', 'Vela expects sodium-ion models to make up a third of its sales.')],
  )
  expect(third?.class).toBe('new')
})

test('a reversal of a decision on a thing both name stands, whatever else each names', async () => {
  const memory = [
    known(
      'close',
      'The health board voted last month to end births at Hollins General and move them to Westbridge Royal.',
    ),
  ]
  const [scrapped] = await classifyClaims(
    [fresh('Carrow Valley Health Board has scrapped its plan to end births at Hollins General.')],
    memory,
  )
  expect([scrapped?.class, scrapped?.match?.id]).toEqual(['contradicted', 'close'])
  // Naming nothing in common, two decisions are two ("a factory in Texas" / "its Valencia factory").
  const [other] = await classifyClaims(
    [fresh('Carrow Valley Health Board has scrapped its plan to end births at Northmere Infirmary.')],
    memory,
  )
  expect(other?.class).not.toBe('contradicted')
})

test('what a claim says still holds is that fact again, the same count under another noun too', async () => {
  const memory = [known('staff', 'All 46 employees of the museum are staying on through the closure.')]
  const [still] = await classifyClaims([fresh('The museum still has 46 people on its payroll.')], memory)
  expect([still?.class, still?.match?.id]).toEqual(['confirmed', 'staff'])
  const [fewer] = await classifyClaims([fresh('The museum still has 40 people on its payroll.')], memory)
  expect(fewer?.class).not.toBe('confirmed')
})

test('the same month of a written year, on a subject both name, in one stance, is that date again', async () => {
  const memory = [
    known('old', 'The Tarne transfer main, which should be finished by March 2027, will help only if it rains.'),
    known('new', 'It confirmed that the Tarne transfer pipeline will not be finished until October 2027.'),
    known('vote', 'Councillors will vote on the hosepipe ban in October 2027.'),
  ]
  const [again, unrelated] = await classifyClaims(
    [
      fresh('That leaves the link from the Tarne, whose completion has slipped to October 2027.'),
      // The same date of something no word of which memory names is no restatement.
      fresh('Elections to the harbour board are set for October 2027.'),
    ],
    memory,
  )
  expect([again?.class, again?.match?.id]).toEqual(['confirmed', 'new'])
  expect(unrelated?.class).toBe('new')
  // A day of a month is as sure with no year written: the story's year is one.
  const opening = [
    known('day', 'Dunmore students will now start the school year on Tuesday, Sept. 8, the district announced.'),
    known('vote', 'The board will vote on the calendar in September.'),
  ]
  const [opened] = await classifyClaims(
    [fresh('The district opened its doors for the year on Sept. 8, a Tuesday, with classes running ever since.')],
    opening,
  )
  expect([opened?.class, opened?.match?.id]).toEqual(['confirmed', 'day'])
})

test('a decision turned round on a thing both name in the same two words is a reversal, however few other words they share', async () => {
  const memory = [
    known('wing', "In February the council's planning committee approved a glass harbour wing on the yard."),
    known('case', 'After a four-hour debate, members approved the business case for the harbourside extension.'),
    known('dig', 'Cinderbrook Lithium expects to start digging at the mine this spring.'),
    known('rain', 'Rainfall in October was 58 per cent of the long-term average.'),
  ]
  const [halted, thrownOut, named] = await classifyClaims(
    [
      fresh('Construction of the glass harbour wing was halted on Monday on the orders of the county archaeologist.'),
      fresh('Days before, councillors threw out the revised business case for carrying the line along the harbour.'),
      // A name is whoever takes the decisions, not what was decided: "Cinderbrook Lithium" on another thing.
      fresh('Cinderbrook Lithium has withdrawn its sponsorship of the Wexham Falls rodeo.'),
    ],
    memory,
  )
  expect([halted?.class, halted?.match?.id]).toEqual(['contradicted', 'wing'])
  expect([thrownOut?.class, thrownOut?.match?.id]).toEqual(['contradicted', 'case'])
  expect(named?.class).toBe('new')
  expect(subjectPhrases('Construction of the glass harbour wing was halted.')).toEqual(
    subjectPhrases('They approved a glass harbour wing.'),
  )
  expect(subjectPhrases('Harbrook Mutual denied it.')).toEqual([])
})

test('a decision turned round on the thing both take their stance on is a reversal, though each wraps it in other words', async () => {
  const memory = [
    known(
      'supply',
      'Fernhill Dairy has signed a three-year supply agreement with Corran Creamery to take the whole output of its Hollow Farm herd.',
    ),
    known('library', 'The council approved the plan for a new library on the Tanyard site in the spring.'),
    known('rain', 'Rainfall in October was 58 per cent of the long-term average.'),
  ]
  const [cancelled, other] = await classifyClaims(
    [
      fresh(
        'Fernhill Dairy has cancelled its agreement with the cheese maker, blaming months of late payments for milk delivered to its Dunmoor depot.',
      ),
      // A stance on another thing the council planned turns nothing round.
      fresh('Six months later the council rejected the plan for a multi-storey car park beside the station.'),
    ],
    memory,
  )
  expect([cancelled?.class, cancelled?.match?.id]).toEqual(['contradicted', 'supply'])
  expect(other?.class).toBe('new')
  expect([...stanceThemes('Fernhill Dairy has cancelled its agreement with the Corran cheese maker.')]).toEqual([
    'agreement',
  ])
  // A plan, a pledge or support is taken on what it is for; a passive's stance on its subject.
  expect([...stanceThemes('The company has shelved plans for a stock market flotation.')]).toEqual(['flotat'])
  expect([...stanceThemes('The union voted to withdraw its support for the calendar.')]).toEqual(['calendar'])
  expect([...stanceThemes('The closure order was revoked on 15 May.')]).toEqual(['order'])
  expect([...stanceThemes("The court suspended Kestrel Ridge's permit.")]).toEqual(['permit'])
  expect([...stanceThemes('Councillors rejected the scaled-down scheme last month.')]).toEqual(['scheme'])
})

test('"not until" a later date announces the change; a percentage may move any way within its hundred', async () => {
  const memory = [
    known('pipeline', 'The Tarne transfer main, which should be finished by March 2027, will help only if it rains.'),
    known('level', 'Stocks at Ollerby Reservoir dropped to 21% of capacity this week, Pellan Water said on Tuesday.'),
    known('ban', 'A hosepipe ban has been in force since July.'),
  ]
  const [later, fuller] = await classifyClaims(
    [
      fresh('It confirmed that the Tarne pipeline will not be finished until October 2027, after crews struck rock.'),
      fresh('Ollerby Reservoir is now close to half full, at 47%.'),
    ],
    memory,
  )
  expect([later?.class, later?.match?.id]).toEqual(['updated', 'pipeline'])
  expect([fuller?.class, fuller?.match?.id]).toEqual(['updated', 'level'])
})

test('a change denied is what held before, still holding: no refusal, no rise or fall', async () => {
  expect(polarity('The slip does not change the price of the ship.').negated).toBe(false)
  expect(polarity('A sum that has not risen since 2019.')).toEqual(polarity('A sum that remains since 2019.'))
  expect(polarity('The design was not in question.').negated).toBe(false)
  expect(polarity('Kestrel has no plans to raise it this year.').negated).toBe(false)
  // A decision refused is still a refusal.
  expect(polarity('The council did not approve the plan.').directions).toEqual(['stance:down'])
  const memory = [known('fare', 'An adult return on the crossing currently costs £14.50.')]
  const [stays] = await classify(
    [
      fresh(
        'The standard return for an adult stays at £14.50, and Kestrel says it has no plans to raise it this year.',
      ),
    ],
    memory,
    callsAllNew,
  )
  expect([stays?.class, stays?.match?.id]).toEqual(['confirmed', 'fare'])
})

test("a judge's contradiction stands on a reversal said as one, and its confirmation on the same count of one thing", async () => {
  const memory = [
    known('merge', "The board approved merging the hospital's two maternity units."),
    known('cheeses', 'Shops were asked to take seven of its cheeses off sale.'),
  ]
  const judge = (candidate: string, verdict: 'contradicted' | 'confirmed') => async (request: JudgeRequest) => {
    const at = request.memory.findIndex((claim) => claim.text.includes(candidate))
    return request.items.map((_, index) => ({ index, class: verdict, candidate: at }))
  }
  const [reversed] = await classify(
    [fresh('Health chiefs reversed course on Tuesday.')],
    memory,
    judge('maternity', 'contradicted'),
  )
  expect([reversed?.class, reversed?.match?.id]).toEqual(['contradicted', 'merge'])
  const [same] = await classify(
    [fresh('They come from the same seven cheeses that were named at the start.')],
    memory,
    judge('cheeses', 'confirmed'),
  )
  expect([same?.class, same?.match?.id]).toEqual(['confirmed', 'cheeses'])
  // Without the words of a reversal, a judge's contradiction of a claim that takes no stance is no proof.
  const [plain] = await classify([fresh('Health chiefs met on Tuesday.')], memory, judge('maternity', 'contradicted'))
  expect(plain?.class).not.toBe('contradicted')
})

test("a judge's match on the same decision told again stands, however few words the two share", async () => {
  const memory = [
    known('approved', 'Councillors nevertheless approved the scheme earlier this month.'),
    known('signed', 'Halvorsen Energy has signed a naming-rights deal for the ground.'),
    known('seats', 'The ground will seat 24,000 spectators.'),
    known('fee', 'Season tickets will start at £395.'),
  ]
  const judge = (candidate: string) => async (request: JudgeRequest) => {
    const at = request.memory.findIndex((claim) => claim.text.startsWith(candidate))
    return request.items.map((_, index) => ({ index, class: 'confirmed' as const, candidate: at }))
  }
  const claim = 'The council approved the stadium in April and says it stands by the decision.'
  const [same] = await classify([fresh(claim)], memory, judge('Councillors'))
  expect([same?.class, same?.match?.id]).toEqual(['confirmed', 'approved'])
  // A decision by someone the claim does not name, or a match with nothing of a decision, does not.
  const [other] = await classify([fresh(claim)], memory, judge('Halvorsen'))
  expect(other?.class).toBe('new')
  const [seats] = await classify([fresh(claim)], memory, judge('The ground will seat'))
  expect(seats?.class).toBe('new')
  // What still holds is what was decided for it.
  const permit = [known('granted', 'The state board voted on Tuesday to grant Cinderbrook a mining permit.')]
  const [stands, lifted] = await classify(
    [
      fresh('The permit the state issued in the spring remains in force while the court considers the petition.'),
      fresh('The permit is no longer in force after the court ruled.'),
    ],
    permit,
    judge('The state board'),
  )
  expect([stands?.class, stands?.match?.id]).toEqual(['confirmed', 'granted'])
  expect(lifted?.class).not.toBe('confirmed')
})

test('a restatement by its figures is found beside a closer claim the rules cannot decide on, and a decimal is distinctive', async () => {
  const memory = [
    known('people', 'Once running, the operation is expected to employ 420 people full-time, the company said.'),
    known('roles', 'Cinderbrook says the site will support 420 permanent roles, most of them from the county.'),
    known('trial', 'People taking velorastat had 4.2 fewer headache days each month, compared with 1.6 fewer days.'),
  ]
  const [workforce, trial] = await classify(
    [
      fresh('Once the site is running, Cinderbrook still expects a permanent workforce of 420.'),
      fresh(
        'Volunteers on velorastat saw their monthly count of migraine days fall by 4.2, compared with 1.6 among those on placebo.',
      ),
    ],
    memory,
    callsAllNew,
  )
  expect(workforce?.class).toBe('confirmed')
  expect([trial?.class, trial?.match?.id]).toEqual(['confirmed', 'trial'])
  expect(extractStatements('compared with 1.6 among those on placebo').figures).toEqual([{ value: 1.6, unit: '' }])
})

test('a sum or a measure said to have changed is its update against a judge\'s "new"; a count, which may count another thing, is not', async () => {
  const memory = [
    known('cost', 'Cinderbrook has put the cost of building the mine at $1.2 billion.'),
    known('members', 'The angling club has 280 members.'),
  ]
  const [cost, members] = await classify(
    [
      fresh("The mine's cost, meanwhile, has risen to $1.45 billion."),
      fresh('The angling club now has 310 junior members.'),
    ],
    memory,
    callsAllNew,
  )
  expect([cost?.class, cost?.match?.id]).toEqual(['updated', 'cost'])
  expect(members?.class).toBe('new')
})

test('a negation in a condition is the condition\'s: "a gap of £14.6m if no action is taken" asserts the gap', () => {
  const gap = polarity('The force expects a funding gap of £14.6m by 2029 if no action is taken.')
  expect(gap.negated).toBe(false)
  expect(opposed(gap, polarity('The force expects a funding gap of £14.6m by 2029.'))).toBe(false)
  // Outside the condition, a negation is the sentence's.
  expect(polarity('The force does not expect a funding gap if the grant is paid.').negated).toBe(true)
})

test('a negation left in a clause that "but" sets aside is not the sentence\'s', () => {
  const worth = polarity('Neither company would put a price on the work, but the contract is worth about £65m.')
  expect(worth.negated).toBe(false)
  expect(polarity('It is not a closure but a pause.').negated).toBe(false)
  // A negation spent on its clause's stance word still turns that stance round.
  expect(polarity('The plan was not approved, but will be reconsidered.').directions).toEqual(['stance:down'])
})

test('idioms of calling a thing off turn its stance round: pulling the plug, off the table, on hold, on ice', () => {
  const plan = polarity('The trust plans a stock market flotation in 2028.')
  for (const text of [
    'A flotation, once pencilled in for 2028, is now off the table.',
    'The extension has been put on hold until the spring.',
    'Plans for a second depot are on ice.',
  ])
    expect(opposed(polarity(text), plan), text).toBe(true)
  expect(opposed(polarity('The trust still plans a flotation, its chair said.'), plan)).toBe(false)
  expect(
    opposed(
      polarity('The Treasury pulled the plug on the £40m grant for the tramway.'),
      polarity('The Treasury approved a £40m grant for the tramway.'),
    ),
  ).toBe(true)
})

test("a judge's match stands on a number both give under other nouns, or a month both give, with no word in common", async () => {
  const memory = [
    known('staff', 'The hospital employs 73 people, from surgeons to porters.'),
    known('closing', 'The firm has also pushed back the closure of the depot until the end of September.'),
    known('fare', 'Adult season tickets will cost £395.'),
  ]
  const claims = [
    fresh('Its staff of 73 have been told to wait for news.'),
    fresh('Their last shift is now due on 30 September.'),
    fresh('Its staff of 80 have been told to wait for news.'),
  ]
  const { judge } = judgeMatching({
    [claims[0]?.text as string]: { class: 'confirmed', memory: memory[0]?.text as string },
    [claims[1]?.text as string]: { class: 'confirmed', memory: memory[1]?.text as string },
    [claims[2]?.text as string]: { class: 'confirmed', memory: memory[2]?.text as string },
  })
  const [staff, shift, other] = await classify(claims, memory, judge)
  expect([staff?.class, staff?.match?.id]).toEqual(['confirmed', 'staff'])
  expect([shift?.class, shift?.match?.id]).toEqual(['confirmed', 'closing'])
  // A match that shares no number, date or word with the claim is no evidence: the rules decide.
  expect(other?.class).toBe('new')
})

test("a judge's reversal stands against a restatement the rules found by its figures, when they read no stance in the claim", async () => {
  const memory = [
    known('pledged', 'Ministers have agreed to put £40 million of public money into the Harwell tramway.'),
    known('headline', 'Trams to return to Harwell as ministers put up £40m'),
  ]
  const claim = fresh('Treasury snatches £40m from Harwell tram scheme')
  const { judge } = judgeMatching({ [claim.text]: { class: 'contradicted', memory: memory[1]?.text as string } })
  // The rules alone read a restatement of the closer pledge.
  expect((await classify([claim], memory))[0]?.class).toBe('confirmed')
  const [taken] = await classify([claim], memory, judge)
  expect([taken?.class, taken?.match?.id]).toEqual(['contradicted', 'headline'])
})

test("a judge's match with no word in common stands when another claim of the run, about the same thing, has the same match", async () => {
  const memory = [
    known('approved', 'Councillors approved the Harwell depot in March.'),
    known('fare', 'Adult season tickets will cost £395.'),
  ]
  const first = fresh('Planners gave the green light to the tram shed.')
  const second = fresh('The green light for the tram shed came after a long hearing.')
  const unrelated = fresh('Buses will stop at the hospital every ten minutes.')
  const { judge } = judgeMatching({
    [first.text]: { class: 'confirmed', memory: memory[0]?.text as string },
    [second.text]: { class: 'confirmed', memory: memory[0]?.text as string },
    [unrelated.text]: { class: 'confirmed', memory: memory[0]?.text as string },
  })
  // Alone, or beside a claim about something else, the match rests on nothing the rules can see.
  expect((await classify([first], memory, judge))[0]?.class).toBe('new')
  expect((await classify([first, unrelated], memory, judge)).map((item) => item.class)).toEqual(['new', 'new'])
  const both = await classify([first, second, unrelated], memory, judge)
  expect(both.map((item) => [item.class, item.match?.id])).toEqual([
    ['confirmed', 'approved'],
    ['confirmed', 'approved'],
    ['new', undefined],
  ])
  // The same wording twice is one reading.
  const twice = await classify([first, fresh(first.text)], memory, judge)
  expect(twice.map((item) => item.class)).toEqual(['new', 'new'])
})

test('counts of two kinds said with the same qualifier ("new homes", "new jobs") are not one figure changed', async () => {
  const memory = [known('homes', 'The developer will build 290 new homes at Fenwick Hill.')]
  const [jobs] = await classify([fresh('The developer will create 350 new jobs at Fenwick Hill.')], memory)
  expect(jobs?.class).toBe('new')
  const [more] = await classify([fresh('The developer will now build 320 new homes at Fenwick Hill.')], memory)
  expect([more?.class, more?.match?.id]).toEqual(['updated', 'homes'])
})

test("a judge's match stands when it is the memory claim that shares the most words with the claim, however few; another is no evidence", async () => {
  const memory = [
    known(
      'programme',
      'Corrin says the money is ringfenced and that the programme will go ahead regardless of the outcome of the appeal.',
    ),
    known('fine', 'The regulator fined Corrin Water £14.5m for sewage spills into the River Addle.'),
    known('bonus', 'The chief executive has waived his annual bonus.'),
    known('beaches', 'Bathing water at Addlemouth was rated poor for a second year.'),
  ]
  const claim = fresh('Management describes the programme as “non-negotiable”.')
  const answer = (id: string) =>
    judgeMatching({ [claim.text]: { class: 'confirmed', memory: memory.find((item) => item.id === id)?.text ?? '' } })
  const [likeliest] = await classify([claim], memory, answer('programme').judge)
  expect([likeliest?.class, likeliest?.match?.id]).toEqual(['confirmed', 'programme'])
  // A match sharing no word with the claim, where another shares one, is what a judge at random gives.
  const [other] = await classify([claim], memory, answer('bonus').judge)
  expect(other?.class).toBe('new')
  // Without the judge, one shared word is no restatement; in a memory of three claims, a judge at
  // random would name the likeliest one time in three.
  expect((await classify([claim], memory))[0]?.class).toBe('new')
  expect((await classify([claim], memory.slice(0, 3), answer('programme').judge))[0]?.class).toBe('new')
})

test("a judge's match stands when it tells what the likeliest tells, and few of memory's claims tell it", async () => {
  const memory = [
    known(
      'programme',
      'Corrin says the money is ringfenced and that the programme will go ahead regardless of the outcome of the appeal.',
    ),
    known('committed', 'The company said the work was fully committed and would go ahead whatever the penalty.'),
    known('fine', 'The regulator fined Corrin Water £14.5m for sewage spills into the River Addle.'),
    known('bonus', 'The chief executive has waived his annual bonus.'),
    known('beaches', 'Bathing water at Addlemouth was rated poor for a second year.'),
    known('tribunal', 'The company has lodged an appeal with the environmental tribunal.'),
    known('overflows', 'Storm overflows at Gullhaven spilled for 1,240 hours last year.'),
    known('swimmers', 'Swimmers were told to stay out of the water at Gullhaven for a week.'),
  ]
  const claim = fresh('Management describes the programme as “non-negotiable”.')
  const answer = (id: string) =>
    judgeMatching({ [claim.text]: { class: 'confirmed', memory: memory.find((item) => item.id === id)?.text ?? '' } })
  // "committed" shares no word with the claim, but tells what "programme" (its likeliest) tells.
  const [telling] = await classify([claim], memory, answer('committed').judge)
  expect([telling?.class, telling?.match?.id]).toEqual(['confirmed', 'committed'])
  // A match that tells something else is what a judge at random gives.
  expect((await classify([claim], memory, answer('bonus').judge))[0]?.class).toBe('new')
  // In a memory of four, two tellings of one fact are half of it: a judge at random names one often.
  const small = memory.filter((item) => ['programme', 'committed', 'bonus', 'beaches'].includes(item.id))
  expect((await classify([claim], small, answer('committed').judge))[0]?.class).toBe('new')
})

test('a count of one noun changed is an update though the sentences wrap it in other clauses; a sum is not', async () => {
  const memory = [
    known(
      'routes',
      'The airline will operate 14 routes from Aberquell through the winter season, which runs from late October to the end of March.',
    ),
    known('fares', 'The airline will charge £14m more in landing fees from Aberquell through the winter season.'),
    known('staff', 'Kittiwake Air employs 310 people, most of them at its Aberquell base.'),
  ]
  const [fewer] = await classify([fresh('From the same date the airline will operate 11 routes.')], memory)
  expect([fewer?.class, fewer?.match?.id]).toEqual(['updated', 'routes'])
  const [sum] = await classify([fresh('From the same date the airline will charge £11m.')], memory)
  expect(sum?.class).toBe('new')
})

test('what a quantity was before ("down from the 120") need not be told again: the count now is the same fact', async () => {
  const memory = [
    known(
      'posts',
      'The force now expects to lose around 85 officer posts over two years, down from the 120 it first planned.',
    ),
    known('first', 'Around 120 officer posts would also disappear, mostly by not replacing officers who retire.'),
  ]
  const [again] = await classify([fresh('Around 85 officer posts are still due to go over the two years.')], memory)
  expect([again?.class, again?.match?.id]).toEqual(['confirmed', 'posts'])
  // A count that is neither is news against both.
  const [other] = await classify([fresh('Around 100 officer posts are now due to go over the two years.')], memory)
  expect(other?.class).not.toBe('confirmed')
})

test('a day both give, with its year or without, makes a restatement of what happens on it, in whatever words', async () => {
  const memory = [
    known('hearing', 'The licensing sub-committee will hear from all sides on 14 May.'),
    known('days', 'The festival would run for three days.'),
  ]
  const [heard] = await classify([fresh('The application by Fieldhouse Events Ltd was heard on 14 May 2026.')], memory)
  expect([heard?.class, heard?.match?.id]).toEqual(['confirmed', 'hearing'])
  const [later] = await classify([fresh('The application by Fieldhouse Events Ltd was heard on 21 May 2026.')], memory)
  expect(later?.class).not.toBe('confirmed')
})

test('a date said to have been due before, and now extended, deferred or postponed, is that date updated', async () => {
  const memory = [
    known('pay', 'The company must pay the penalty by 30 June 2026.'),
    known('consult', 'The consultation with staff on the closure runs until 20 March.'),
  ]
  const [deferred, extended] = await classifyClaims(
    [
      fresh('The payment, previously due by 30 June, has been deferred until 31 August 2026.'),
      fresh('The consultation with staff, which had been due to finish on 20 March, has been extended to 3 April.'),
    ],
    memory,
  )
  expect([deferred?.class, deferred?.match?.id]).toEqual(['updated', 'pay'])
  expect([extended?.class, extended?.match?.id]).toEqual(['updated', 'consult'])
})

test('a plural noun opening a sentence ("Governors", "Councillors") names no one: it does not set two decisions apart', async () => {
  const [rejected] = await classifyClaims(
    [fresh('Governors rejected the plan.')],
    [known('approved', 'The Ashcombe trust approved the plan in June.')],
  )
  expect([rejected?.class, rejected?.match?.id]).toEqual(['contradicted', 'approved'])
})

test('an appeal against a decision, or a reversal asked for, is news that turns nothing round: the decision stands until it is granted', async () => {
  const memory = [
    known('licence', 'The licensing board granted the Corbel Arms a late licence in March.'),
    known('ruling', 'A tribunal ruled last month that the Halden mill must stop discharging into the river.'),
  ]
  const [appeal, asked, petition] = await classifyClaims(
    [
      fresh("Residents have lodged an appeal against the licensing board's decision on the Corbel Arms."),
      fresh("The mill's owners will ask the High Court to overturn the tribunal's ruling, the company said."),
      fresh('Neighbours urged the board to revoke the late licence.'),
    ],
    memory,
  )
  expect(appeal?.class).toBe('new')
  expect(asked?.class).toBe('new')
  expect(petition?.class).toBe('new')
  // Each is still a decision someone took, and news; an appeal against a penalty refuses to pay it.
  expect(decides("The mill's owners will ask the High Court to overturn the tribunal's ruling.")).toBe(true)
  expect(polarity('The mill lodged an appeal against the £40,000 fine.').directions).toEqual(['stance:down'])
  // The decision itself overturned is the reversal, though the appeal shares more of its words.
  const [overturned] = await classifyClaims(
    [fresh("An inspector has overturned the council's refusal and granted permission for the Linthorpe depot.")],
    [
      known('refused', 'Councillors refused the Linthorpe scheme in January.'),
      known(
        'appealed',
        "Dorvale Freight has appealed against the council's refusal of permission for the Linthorpe depot.",
      ),
    ],
  )
  expect([overturned?.class, overturned?.match?.id]).toEqual(['contradicted', 'refused'])
})

test('a figure trimmed, narrowed or slashed is changed, and a bare number after the change names the quantity before it', async () => {
  const memory = [
    known('deficit', 'The trust expects a deficit of £9.4m this financial year.'),
    known('members', 'The choir has a membership of 146, its largest since 2010.'),
    known('fleet', 'Its fleet stands at 62.'),
  ]
  const [narrowed, members, fleet] = await classifyClaims(
    [
      fresh('The deficit has since narrowed to £7.1m after a one-off grant.'),
      fresh('Its membership is down to 121.'),
      fresh('The fleet has been trimmed to 48.'),
    ],
    memory,
  )
  expect([narrowed?.class, narrowed?.match?.id]).toEqual(['updated', 'deficit'])
  expect([members?.class, members?.match?.id]).toEqual(['updated', 'members'])
  expect([fleet?.class, fleet?.match?.id]).toEqual(['updated', 'fleet'])
  // An adjective is no change: "a narrow majority" moves nothing.
  expect(polarity('The motion passed by a narrow majority.').directions).toEqual(['stance:up'])
})

test('more words say a figure or a date replaced another: slipping into, a new target, than first thought, moved from', async () => {
  const memory = [
    known('finish', 'The resurfacing is due to be finished by the end of October 2026.'),
    known('bill', 'Engineers put the cost of the repairs at £2.2m.'),
    known('launch', 'The first trains are expected to run in May 2027.'),
  ]
  const [slips, bill, moved] = await classifyClaims(
    [
      fresh('The resurfacing will slip into the new year, with the end of February 2027 the new target.'),
      fresh('The board approved £3.1m for the work after inspectors found more damage than first thought.'),
      fresh('The start of services has moved from May 2027 to September 2027, the operator confirmed.'),
    ],
    memory,
  )
  expect([slips?.class, slips?.match?.id]).toEqual(['updated', 'finish'])
  expect([bill?.class, bill?.match?.id]).toEqual(['updated', 'bill'])
  // Who confirmed it names a source, not another thing.
  expect([moved?.class, moved?.match?.id]).toEqual(['updated', 'launch'])
})

test('a reversal said as one ("withdrew its support", "walked back her promise", "rescinded its decision") turns round what memory holds decided, either way', async () => {
  const memory = [
    known('backing', 'The nurses’ union endorsed the new rota before the trust board voted on it.'),
    known('jobs', 'The mayor has ruled out compulsory redundancies among library staff.'),
    known('merger', 'The two parish councils approved plans to merge their grounds teams in June.'),
  ]
  const [support, promise, rescinded] = await classifyClaims(
    [
      fresh('The union has voted to withdraw its support for the rota.'),
      fresh('The mayor has walked back her promise that no library staff would be made compulsorily redundant.'),
      fresh('Both councils voted last night to rescind their June decision and keep separate grounds teams.'),
    ],
    memory,
  )
  expect([support?.class, support?.match?.id]).toEqual(['contradicted', 'backing'])
  expect([promise?.class, promise?.match?.id]).toEqual(['contradicted', 'jobs'])
  expect([rescinded?.class, rescinded?.match?.id]).toEqual(['contradicted', 'merger'])
})

test('a decision turned round is of a thing both name in common words: a place, a name or "plans" shared are two things', async () => {
  const memory = [
    known('span', 'The old swing bridge over the River Tane at Holmford opened in 1902.'),
    known('permit', 'The district council granted planning permission for a bakery at Coldwell Trading Estate.'),
    known(
      'fee',
      'The board of Tollmere Harbour Authority agreed on Monday to introduce a landing fee of £4 per passenger.',
    ),
    known('buses', 'Harlow Buses has agreed to run the evening services.'),
  ]
  const [ferry, hold, withdrawn, pulled] = await classifyClaims(
    [
      fresh('Plans for a passenger ferry across the River Tane at Holmford have been shelved by the harbour board.'),
      fresh('Pennock Foods has put its plans for a distribution hub at Coldwell Trading Estate on hold.'),
      fresh("The ministerial sign-off that Tollmere's authority won in May has since been withdrawn."),
      fresh('Harlow Buses has pulled out of its agreement to run the evening services.'),
    ],
    memory,
  )
  expect(ferry?.class).not.toBe('contradicted')
  expect(hold?.class).not.toBe('contradicted')
  // A decision named as the thing turned round is memory's decision, in whatever words it was told.
  expect([withdrawn?.class, withdrawn?.match?.id]).toEqual(['contradicted', 'fee'])
  expect([pulled?.class, pulled?.match?.id]).toEqual(['contradicted', 'buses'])
})

test("the story's own subject is no thing a decision turns round: plans for a base shelved do not reverse the consent for the wind farm", async () => {
  const [shelved] = await classifyClaims(
    [
      fresh(
        'Halden Power has shelved its plan to run the Orrin Bank wind farm from Portcallow and will build its operations and maintenance base at Ernsford instead.',
      ),
    ],
    [
      known(
        'consent',
        'The Marine Consents Office on Tuesday granted development consent to Halden Power for the Orrin Bank offshore wind farm.',
      ),
      known('turbines', 'The wind farm will have 60 turbines.'),
      known('power', 'The wind farm is due to send its first power ashore in 2029.'),
      known('workers', 'Building the wind farm will need 500 workers at the busiest point.'),
      known('offshore', 'The turbines will stand 40 kilometres off the coast.'),
    ],
  )
  expect(shelved?.class).not.toBe('contradicted')
})

test('a thing named in two words ("its Lindau plant") is the thing turned round, though every word of it is a name or the story\'s own', async () => {
  const [late] = await classifyClaims(
    [fresh('The Lindau plant of Corvex is no longer on track to open in 2028.')],
    [
      known('lindau', 'Corvex still plans to open its Lindau plant in 2028.'),
      known('cost', "Corvex's Ohio plant will cost $4bn."),
      known('jobs', 'The Ohio plant of Corvex will employ 900 people.'),
      known('ohio', 'Corvex expects its Ohio plant to start production in 2029.'),
      known('osaka', 'Corvex will build a third plant in Osaka.'),
    ],
  )
  expect([late?.class, late?.match?.id]).toEqual(['contradicted', 'lindau'])
})

test('a contest going ahead turns nothing round: a hearing that begins is no reversal of the challenge it hears', async () => {
  const [hearing] = await classifyClaims(
    [fresh('A judge will hear the challenge to the Hollin Edge quarry over two days beginning on 3 May.')],
    [
      known(
        'challenge',
        "Campaigners against the Hollin Edge quarry have lodged a legal challenge at the High Court, asking a judge to overturn the county's decision to approve it.",
      ),
    ],
  )
  expect(hearing?.class).not.toBe('contradicted')
})

test("a measure that moved, in a sentence holding most of the shorter telling's words, is that thing updated however much wraps it", async () => {
  const [generate] = await classifyClaims(
    [
      fresh(
        'Once built, the smaller plant at Wexcombe Quarry will generate 36 megawatts of electricity, enough to run itself with a healthy surplus left over for the grid, its owners said on Tuesday.',
      ),
    ],
    [known('output', 'The plant will export 48 megawatts of electricity to the grid.')],
  )
  expect([generate?.class, generate?.match?.id]).toEqual(['updated', 'output'])
})

test('what a decision settled, told again without the deciding, is that fact; a decision on what memory only told is news', async () => {
  const memory = [
    known('deadline', 'Redlow has agreed to give the buyers until 15 June to complete the sale.'),
    known('earlier', 'The two sides had until 1 May to complete the deal.'),
    known('price', "The buyers will pay £3.2m for Redlow's shares in the club, according to a statement on Tuesday."),
    known('share', 'The sale gives the buyers 90 per cent of the club.'),
    known('vote', 'Supporters voted by 71% to 29% to back the sale in March.'),
  ]
  const [settled] = await classifyClaims([fresh('The buyers had until 15 June to complete the sale.')], memory)
  expect([settled?.class, settled?.match?.id]).toEqual(['confirmed', 'deadline'])
  const [decided] = await classifyClaims(
    [fresh('Redlow has agreed to give the buyers until 15 June to complete the sale.')],
    [known('state', 'The buyers had until 15 June to complete the sale.'), ...memory.slice(1)],
  )
  expect(decided?.class).not.toBe('confirmed')
})

test('a number with no noun ("at 3.9 million rather than 1.4 million") counts what memory\'s figure of that value counts', async () => {
  const [higher] = await classifyClaims(
    [
      fresh(
        'The insurer also said the number of people whose details were taken was far higher than first thought, at 3.9 million rather than 1.4 million.',
      ),
    ],
    [
      known(
        'people',
        'Around 1.4 million people who are insured by Hallam Mutual have had their details taken, the insurer says.',
      ),
      known(
        'records',
        'Hallam Mutual said the stolen records covered roughly 1.4 million people whose employers buy its cover.',
      ),
      known(
        'employees',
        'The insurer said details belonging to about 1.4 million employees had been taken, including names, home addresses and dates of birth.',
      ),
    ],
  )
  expect(higher?.class).toBe('updated')
})

test('a date said to replace memory\'s ("on 3 March, not in mid-April as the company had said") changes it', async () => {
  const [earlier] = await classifyClaims(
    [
      fresh(
        "An audit published with the regulator's notice shows the pumps first failed on 3 March, not in mid-April as the water company had said.",
      ),
    ],
    [
      known(
        'failed',
        'According to the company, the pumps first failed on 18 April, about a week before anyone noticed.',
      ),
      known('fault', 'The company says the fault dates from 18 April.'),
      known('repay', 'The company has promised to repay customers by 30 June.'),
    ],
  )
  expect([earlier?.class, earlier?.match?.id]).toEqual(['updated', 'failed'])
})

test("a figure memory's claim gives, beside another it gave before, is no change of it", async () => {
  const [same] = await classifyClaims(
    [fresh('Even once the tolls begin, the bridge is expected to bring in 1.6 million pounds a year.')],
    [
      known(
        'tolls',
        'It now expects the bridge tolls to bring in £1.6m a year, against the £2.9m it forecast in March.',
      ),
      known('start', 'The tolls start on 1 May.'),
    ],
  )
  expect(same?.class).not.toBe('updated')
})

test("a claim's own figure, given by another memory claim in a stance not turned round, is known, though a closer claim gives another", async () => {
  const [known8200] = await classifyClaims(
    [fresh("That campaign's petition gathered 8,200 signatures.")],
    [
      known('first', 'The petition gathered 2,000 signatures in its first week, its organisers say.'),
      known(
        'signed',
        'The decision takes account of a petition signed by 8,200 people, which Holmby Town Council presented to the board in January.',
      ),
      known('open', 'Campaigners want the library kept open.'),
      known('books', 'The library lends 40,000 books a year.'),
    ],
  )
  expect([known8200?.class, known8200?.match?.id]).toEqual(['confirmed', 'signed'])
})

test('a go-ahead given is an approval, and an application made is a bid its maker may withdraw', async () => {
  const memory = [
    known('go', 'The county gave the go-ahead in May for a cycle bridge over the Hessle road.'),
    known('bid', 'Tarnmouth Water has applied to the regulator for a permit to abstract more from the Leven.'),
  ]
  const [hold, withdrawn] = await classifyClaims(
    [
      fresh('The cycle bridge over the Hessle road has been put on hold.'),
      fresh('Tarnmouth Water has withdrawn its application for the Leven abstraction permit.'),
    ],
    memory,
  )
  expect([hold?.class, hold?.match?.id]).toEqual(['contradicted', 'go'])
  expect([withdrawn?.class, withdrawn?.match?.id]).toEqual(['contradicted', 'bid'])
  expect(polarity('The rules apply to lorries over 7.5 tonnes.').directions).toEqual([])
})

test('a rough count the other allows is no other count, and what a quantity was before is no change of it now', async () => {
  const memory = [
    known('took', 'More than two thousand one hundred people took part in the survey this spring.'),
    known('stops', 'The scaled-back route has three new stops.'),
  ]
  const [some, before] = await classifyClaims(
    [
      fresh('Some 2,140 people took part in the survey.'),
      fresh('The route will now have three new stops, rather than the five first proposed.'),
    ],
    memory,
  )
  expect([some?.class, some?.match?.id]).toEqual(['confirmed', 'took'])
  expect(before?.class).not.toBe('updated')
})

test('a thing both name in the same two words, with a sum or a measure that moved, is that figure updated, however many other words wrap each', async () => {
  const memory = [
    known('bypass', 'The developer has promised a £9m relief road, though residents doubt it will ease the queues.'),
    known('homes', 'The scheme is for 900 homes on the edge of the village.'),
    known('hearing', 'The inquiry opened on 4 March at the town hall.'),
    known('objectors', 'More than 2,000 people objected to the plans.'),
    known('site', 'The site covers 60 hectares of farmland.'),
  ]
  const [road, count] = await classifyClaims(
    [
      fresh('The legal agreement secures the £12.5m Marston relief road before the 300th home is occupied.'),
      // A count may count another thing: two counts of homes are not one figure moved.
      fresh('The legal agreement allows 650 homes before the new junction opens.'),
    ],
    memory,
  )
  expect([road?.class, road?.match?.id]).toEqual(['updated', 'bypass'])
  expect(count?.class).not.toBe('updated')
})

test('a claim that says what it replaces revises that, not another figure or date memory holds', async () => {
  const memory = [
    known('consult', 'The consultation with staff on the closure runs until 20 March.'),
    known('staff', 'The depot employs 210 people.'),
  ]
  const [kept, posts] = await classifyClaims(
    [
      fresh('The depot will keep running until 30 September, rather than closing at the end of June as first planned.'),
      fresh('The firm now expects 45 posts to go, down from 60.'),
    ],
    memory,
  )
  expect(kept?.class).toBe('new')
  expect(posts?.class).toBe('new')
  // What memory held is what it replaces: that is the revision.
  const [moved] = await classifyClaims(
    [fresh('The depot will keep running until 30 September, rather than closing at the end of June.')],
    [known('close', 'The depot will close at the end of June.'), ...memory],
  )
  expect([moved?.class, moved?.match?.id]).toEqual(['updated', 'close'])
})

test('a figure said to hold still updates nothing, and memory that holds the very figure already knows it', async () => {
  const memory = [
    known('march', 'The contractor remains on course to finish the pipeline by 31 March 2028.'),
    known('dec', 'The pipeline is now due to be finished in December 2028.'),
    known('first', 'The petition passed 3,000 signatures in its first week.'),
    known('now', 'Campaigners say their petition has now gathered 9,400 signatures.'),
  ]
  const [stays, petition] = await classifyClaims(
    [
      fresh('The completion date for the pipeline stays at December 2028.'),
      fresh('That petition gathered 9,400 signatures in its first weeks.'),
    ],
    memory,
  )
  expect(stays?.class).not.toBe('updated')
  expect([petition?.class, petition?.match?.id]).toEqual(['confirmed', 'now'])
  // "Still" as often means "even so": a figure that moved is an update whatever "still" says.
  const [gap] = await classifyClaims(
    [fresh('Even with the grant, the trust still has a funding gap of £2.3m.')],
    [known('gap', 'The trust has a funding gap of £2.6m.')],
  )
  expect([gap?.class, gap?.match?.id]).toEqual(['updated', 'gap'])
})

test('a thing memory told as planned, dropped by its owner, is a reversal; a first decision on it by another is news', async () => {
  const memory = [
    known('studio', 'The plans also include a new 120-seat studio theatre on the site of the old scene dock.'),
    known('school', 'The plans also set aside land at the heart of the estate for a new 420-place primary school.'),
    known('decide', 'The planning committee is expected to decide the application on 14 July.'),
  ]
  const [shelved, scrapped] = await classifyClaims(
    [
      fresh(
        'To claw some of that back, the trust has shelved the 120-seat studio it had planned for the old scene dock.',
      ),
      fresh('The higher offer has been paid for partly by scrapping the on-site primary school, which frees up land.'),
    ],
    memory,
  )
  expect([shelved?.class, shelved?.match?.id]).toEqual(['contradicted', 'studio'])
  expect([scrapped?.class, scrapped?.match?.id]).toEqual(['contradicted', 'school'])
  // What memory said was being prepared, shelved; not what a maker says it has not dropped.
  const listing = [known('ipo', 'She also said Quillon was preparing for a stock market listing, possibly in 2028.')]
  const [shelvedListing] = await classifyClaims(
    [fresh('The company has shelved plans for a stock market flotation, its chief executive told staff.')],
    listing,
  )
  expect([shelvedListing?.class, shelvedListing?.match?.id]).toEqual(['contradicted', 'ipo'])
  const [kept] = await classifyClaims(
    [fresh('The trust has not scrapped the 120-seat studio it planned for the old scene dock.')],
    memory,
  )
  expect(kept?.class).not.toBe('contradicted')
  // "A drop" in something is a fall, not a plan dropped.
  const [fall] = await classifyClaims(
    [fresh('Bookings for the 120-seat studio showed a drop in the first month after the old scene dock closed.')],
    memory,
  )
  expect(fall?.class).not.toBe('contradicted')
  // A plan of another step of the thing, at another date: dropping the opening is not dropping the groundbreaking.
  const [opening] = await classifyClaims(
    [fresh('Meridian has dropped its plan to open the Dresden fab in 2027.')],
    [known('ground', 'Groundbreaking for the Dresden fab of Meridian is planned for June 2026.')],
  )
  expect(opening?.class).not.toBe('contradicted')
  // The committee was to decide; refusing is what it decided, not a plan dropped.
  const [refused] = await classifyClaims(
    [fresh("The district council's planning committee refused permission for the expansion last night.")],
    memory,
  )
  expect(refused?.class).toBe('new')
})

test('a deal one side walked away from reverses the deal memory told agreed, with the same other side', async () => {
  const memory = [
    known('sale', 'It has also agreed to sell the police station in Fenwold Market to Saltwick Homes for £1.2m.'),
    known('supplier', 'Morvane has signed a preferred supplier agreement with Veltmar Wind to provide the turbines.'),
  ]
  const [pulled, walked, another] = await classifyClaims(
    [
      fresh('Saltwick Homes has pulled out of its deal to buy the building.'),
      fresh(
        "Morvane walked away from its deal with Veltmar Wind earlier this month after delays at Veltmar's factory.",
      ),
      // The deal is another side's.
      fresh('Tidemark Leisure has pulled out of its deal to buy the pier.'),
    ],
    memory,
  )
  expect([pulled?.class, pulled?.match?.id]).toEqual(['contradicted', 'sale'])
  expect([walked?.class, walked?.match?.id]).toEqual(['contradicted', 'supplier'])
  expect(another?.class).toBe('new')
  // What the other side dropped is no deal.
  const [objection] = await classifyClaims(
    [fresh('Saltwick Homes has scrapped its plans for flats at the old library.')],
    memory,
  )
  expect(objection?.class).toBe('new')
})

test('a figure said to be a multiple of what it was updates the figure of which it is that multiple, whatever each counts', async () => {
  const memory = [
    known('petition', 'Our petition against the expansion has now been signed by 4,300 people from the village.'),
    known('records', 'Around 1.2 million people who are paid through Tallyforge have had their data taken.'),
    known('ferry', 'The ferry carries 300 passengers on a busy day.'),
  ]
  const [names, workers, length] = await classifyClaims(
    [
      fresh('Our petition has now passed 9,800 names, more than twice the total we had in the spring.'),
      fresh(
        'Tallyforge now says 3.4 million workers had their personal data stolen, almost three times its first estimate.',
      ),
      // A multiple of something else: 900 is three times 300, not twice.
      fresh('The new leaflet, handed to 900 households, is twice the length of the old one.'),
    ],
    memory,
  )
  expect([names?.class, names?.match?.id]).toEqual(['updated', 'petition'])
  expect([workers?.class, workers?.match?.id]).toEqual(['updated', 'records'])
  expect(length?.class).toBe('new')
})

test('a word the table folds by its verb is itself as a noun, after "a", "the" or "its"', () => {
  const stem = stemsOnce()
  // "Deal" the verb is "cover"; "its deal" is a deal, and "a grant" no "let".
  const [cover] = subjectTerms('cover', stem)
  expect(subjectTerms('deal', stem)).toEqual([cover])
  const deal = subjectTerms('Morvane walked away from its deal with Veltmar Wind.', stem)
  expect(deal).not.toContain(cover)
  expect(deal).toEqual(subjectTerms('Morvane walked away from the deal with Veltmar Wind.', stem))
  expect(subjectTerms('The council awarded a grant.', stem)).not.toEqual(
    subjectTerms('The council awarded a let.', stem),
  )
  // The verb is still read by its sense: "will deal with" is "will cover".
  expect(subjectTerms('The board will deal with the complaints.', stem)).toEqual(
    subjectTerms('The board will cover the complaints.', stem),
  )
})

test('a decision dated before the news, in the stance memory holds on the same thing, is told again', async () => {
  const memory = [
    known(
      'stadium',
      "The borough council's planning committee granted full planning permission for the stadium on Wednesday night.",
    ),
    known(
      'births',
      'Members of the health board voted by eight to three on Thursday to close the consultant-led maternity unit at Hollins General and send births to Westbridge Royal.',
    ),
  ]
  const [stadium, births, reversed, fresh1] = await classifyClaims(
    [
      fresh('The council approved the stadium in April and says it stands by the decision.'),
      fresh(
        'The health board voted last month to end consultant-led births at Hollins General and move them to Westbridge Royal.',
      ),
      // Turned round, however dated: no telling again.
      fresh('The council refused permission for the stadium in April.'),
      // Dated before the news, but of another thing.
      fresh('The council approved a new car park beside the station in April.'),
    ],
    memory,
  )
  expect([stadium?.class, stadium?.match?.id]).toEqual(['confirmed', 'stadium'])
  expect([births?.class, births?.match?.id]).toEqual(['confirmed', 'births'])
  expect(reversed?.class).not.toBe('confirmed')
  expect(fresh1?.class).toBe('new')
})

test("a decision quashed, or an appeal against it allowed, is turned round by a body memory's decision did not name", async () => {
  const memory = [
    known(
      'refusal',
      'Brenmoor District Council refused planning permission for the quarry at Hob Hill by eight votes to three.',
    ),
    known(
      'licence',
      'The licensing committee granted the Velvet Room a late licence for its basement club on Quay Street.',
    ),
  ]
  const [allowed, quashed] = await classifyClaims(
    [
      fresh(
        "A planning inspector has allowed Corvell Aggregates' appeal and granted permission for the quarry at Hob Hill.",
      ),
      fresh('Magistrates quashed the late licence for the basement club on Quay Street after hearing from residents.'),
    ],
    memory,
  )
  expect([allowed?.class, allowed?.match?.id]).toEqual(['contradicted', 'refusal'])
  expect([quashed?.class, quashed?.match?.id]).toEqual(['contradicted', 'licence'])
  // Asked for, refused, or told as background, nothing is turned round yet (or again).
  const [asked, refused, background, dismissed] = await classifyClaims(
    [
      fresh('Corvell Aggregates will ask the High Court to quash the refusal of the quarry at Hob Hill.'),
      fresh('A judge refused to quash the late licence for the basement club on Quay Street.'),
      fresh(
        'Residents have kept up their campaign since magistrates quashed the late licence for the Quay Street club.',
      ),
      fresh("The inspector dismissed Corvell Aggregates' appeal over the quarry at Hob Hill."),
    ],
    memory,
  )
  expect(asked?.class).not.toBe('contradicted')
  expect(refused?.class).not.toBe('contradicted')
  expect(background?.class).not.toBe('contradicted')
  expect(dismissed?.class).not.toBe('contradicted')
})

test('a refusal in the main clause outweighs a stance told in passing; a ban lifted is revoked; a perfect participle set off is background', async () => {
  expect(
    stanceSign(
      polarity('The union has called off its planned strike ballot at the depot after winning concessions in talks.'),
    ),
  ).toBe(-1)
  expect(polarity('The aviation authority lifted its ban on night flights at Tarrow on Friday.').directions).toEqual([
    'stance:up',
  ])
  // A forecast lifted is raised, no stance.
  expect(polarity('The airline lifted its forecast for the year.').directions).toEqual([])
  expect(
    polarity(
      'The agency lifted its prohibition notice at the smelter on 11 May, having refused an earlier application in April.',
    ).directions,
  ).toEqual(['stance:up'])
  // "Without" describes a state; the stoppage that began is still its clause's.
  expect(
    stanceSign(polarity('It follows the stoppage that began on 16 February, when the town was left without a bus.')),
  ).not.toBe(-1)
  const memory = [
    known('ballot', "The union's executive agreed on Wednesday to ballot members at the depot for strike action."),
    known('ban', 'The aviation authority banned night flights at Tarrow from the start of March.'),
  ]
  const [calledOff, lifted] = await classifyClaims(
    [
      fresh('The union has called off its planned strike ballot at the depot after winning concessions in talks.'),
      fresh('The aviation authority lifted its ban on night flights at Tarrow on Friday.'),
    ],
    memory,
  )
  expect([calledOff?.class, calledOff?.match?.id]).toEqual(['contradicted', 'ballot'])
  expect([lifted?.class, lifted?.match?.id]).toEqual(['contradicted', 'ban'])
})

test('its maker taking back what memory told it did is a reversal: a resignation withdrawn, an objection withdrawn', async () => {
  const memory = [
    known(
      'resigned',
      'Councillor Ada Ferrow has resigned as chair of the planning committee, effective at the end of May.',
    ),
    known(
      'objected',
      'The Harwell Society objected to the bypass, saying it would cut the village off from the river.',
    ),
  ]
  const [resignation, objection, another] = await classifyClaims(
    [
      fresh('Ada Ferrow has withdrawn her resignation and will stay on as chair of the committee.'),
      fresh('The Harwell Society has withdrawn its objection after the route was moved away from the river.'),
      // Another's act taken back takes back nothing of hers.
      fresh('Councillor Ben Ashe has withdrawn his nomination for the committee.'),
    ],
    memory,
  )
  expect([resignation?.class, resignation?.match?.id]).toEqual(['contradicted', 'resigned'])
  expect([objection?.class, objection?.match?.id]).toEqual(['contradicted', 'objected'])
  expect(another?.class).not.toBe('contradicted')
})

test('one event of one thing at another date is that event moved, though no word says it moved', async () => {
  const memory = [
    known(
      'open',
      'The harbour authority says the new marina will be finished by May 2028, in time for the sailing season.',
    ),
    known('levy', 'The visitor levy starts on 1 April.'),
    known('consult', "The council's consultation on the marina closes on 14 March."),
  ]
  const [opening, levy, another, supposed] = await classifyClaims(
    [
      fresh('The harbour authority is aiming to open the marina in October 2028, after the regatta.'),
      fresh('Subject to approval by ministers, the levy would begin on Wednesday 1 September 2027.'),
      // Another step of the marina: its pontoons, not its opening.
      fresh('Work on the pontoons is due to start in January 2027.'),
      // A start told in passing is no date of the thing's start.
      fresh('The budget is tight, which leaves little float if the levy starts late in 2027.'),
    ],
    memory,
  )
  expect([opening?.class, opening?.match?.id]).toEqual(['updated', 'open'])
  expect([levy?.class, levy?.match?.id]).toEqual(['updated', 'levy'])
  expect(another?.class).toBe('new')
  expect(supposed?.class).not.toBe('updated')
})

test('a reversal said as one names the decision it reverses by its month', async () => {
  const memory = [
    known(
      'vote',
      'At its meeting on 4 March, the parish council voted against selling the allotments to Hollis Homes.',
    ),
    known('other', 'The parish council approved a new play area for the green in June.'),
  ]
  const [reverses, another] = await classifyClaims(
    [
      fresh('The decision reverses the vote taken in March 2026, after the developer offered replacement plots.'),
      // Another month names another decision.
      fresh('The decision reverses the vote taken in September, after the developer offered replacement plots.'),
    ],
    memory,
  )
  expect([reverses?.class, reverses?.match?.id]).toEqual(['contradicted', 'vote'])
  expect(another?.class).not.toBe('contradicted')
})

test("a change memory already holds is told again, not made again: its figure as it now stands is another memory claim's", async () => {
  const planned = known('planned', 'To make room for the pontoons, 180 moorings will be taken out along the quay.')
  const redesign = known(
    'redesign',
    'Under a redesign published last month, the quay will lose 120 moorings rather than the 180 first proposed.',
  )
  const [again] = await classifyClaims(
    [
      fresh(
        'The pontoons would also take 120 mooring places off the quay, a number that was cut after sailors objected.',
      ),
    ],
    [planned, redesign],
  )
  expect([again?.class, again?.match?.id]).toEqual(['confirmed', 'redesign'])
  // Memory without the change: the same claim is its update.
  const [change] = await classifyClaims(
    [
      fresh(
        'The pontoons would also take 120 mooring places off the quay, a number that was cut after sailors objected.',
      ),
    ],
    [planned],
  )
  expect([change?.class, change?.match?.id]).toEqual(['updated', 'planned'])
})
