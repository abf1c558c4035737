// The synthetic web of the quality benchmark, made from a seed: for each domain, facts with versions
// and wordings, and three epochs of pages. Epoch 1 states some facts; epochs 2 and 3 are new URLs
// carrying a mix of unchanged facts in other words, changed figures and dates, new facts,
// contradictions, near-duplicate pages (one text on two URLs) and boilerplate, and a few URLs of
// earlier epochs again (which the engine's ledger skips). Every epoch also serves each topic two
// pages about another topic (strays), as a search that settles for some of a query's words does.
// The registry maps every sentence the web can hold back to what it states, which is the ground
// truth the scorer reads.
import type { Domain, FactSpec, When } from '#bench/quality/catalogue.ts'
import { batteries } from '#bench/quality/domain-batteries.ts'
import { chipFabs } from '#bench/quality/domain-chip-fabs.ts'
import { heatPumps } from '#bench/quality/domain-heat-pumps.ts'
import { buildRegistry, type RegistryEntry } from '#bench/quality/registry.ts'
import { createRng, type Rng } from '#bench/quality/rng.ts'

export const DOMAINS: Domain[] = [batteries, heatPumps, chipFabs]
export const EPOCHS = 3

export type Version = { label: string; positive: boolean; wordings: string[] }
export type Fact = { key: string; kind: FactSpec['kind']; versions: Version[] }
/** One sentence of a page that states version `version` of fact `fact`. */
export type Statement = { fact: string; version: number; text: string }
export type Page = {
  url: string
  title: string
  text: string
  statements: Statement[]
  duplicateOf?: string
  /** A page that only mentions the topic in passing (the realistic corpus): it gives no finding. */
  passing?: boolean
}
/** What an epoch does to each fact it mentions, relative to what the web said before (`fact@version`). */
export type EpochPlan = { new: string[]; updated: string[]; contradicted: string[]; restated: string[] }
/** `strays`: URLs of other topics' pages of the same epoch, served as well (and in `served`). */
export type Epoch = { pages: Page[]; plan: EpochPlan; served: string[]; strays: string[] }
export type TopicWeb = { domain: string; topic: string; facts: Fact[]; epochs: Epoch[] }
export type Web = { seed: number; topics: TopicWeb[]; facts: Map<string, Fact>; registry: Map<string, RegistryEntry> }

// Shares of a topic's facts first stated in epoch 1 and 2 (the rest in 3), and of the facts already
// stated that an epoch changes, contradicts or restates. Every scheduled statement appears on a
// second page, in other words, this often; this share of pages is also syndicated to a second URL.
const FIRST_EPOCH_SHARE = 0.55
const SECOND_EPOCH_SHARE = 0.25
const CHANGE_SHARE = 0.3
const FLIP_SHARE = 0.1
const RESTATE_SHARE = 0.35
const SECOND_WORDING = 0.3
const DUPLICATE_PAGE = 0.2
const OLD_URLS_SERVED = 3
const STRAY_PAGES = 2

export const versionKey = (fact: string, version: number) => `${fact}@${version}`

export function generateWeb(options: { seed: number; factsPerTopic: number; topicSuffix?: string }): Web {
  const topics = DOMAINS.map((domain) =>
    generateTopic(domain, options.seed, options.factsPerTopic, `${domain.topic}${options.topicSuffix ?? ''}`),
  )
  addStrays(topics, options.seed)
  const facts = new Map(topics.flatMap((topic) => topic.facts.map((fact) => [fact.key, fact] as const)))
  const boilerplate = DOMAINS.flatMap((domain) => [...domain.boilerplate, ...domain.sites.map(syndication)])
  const registry = buildRegistry(facts.values(), boilerplate)
  return { seed: options.seed, topics, facts, registry }
}

function generateTopic(domain: Domain, seed: number, factsPerTopic: number, topic: string): TopicWeb {
  const rng = createRng(seed, domain.key)
  const facts = selectFacts(domain.facts, factsPerTopic).map((spec) => ({
    key: `${domain.key}/${spec.key}`,
    kind: spec.kind,
    versions: versionsOf(spec, rng),
  }))
  const order = rng.shuffle(facts)
  const first = Math.round(facts.length * FIRST_EPOCH_SHARE)
  const second = Math.round(facts.length * SECOND_EPOCH_SHARE)
  const introducedIn = (index: number) => (index < first ? 1 : index < first + second ? 2 : 3)
  const latest = new Map<string, number>()
  const used = new Map<string, number[]>()
  const epochs: Epoch[] = []
  const allPages: Page[] = []

  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    const plan: EpochPlan = { new: [], updated: [], contradicted: [], restated: [] }
    const scheduled: Array<{ fact: Fact; version: number }> = []
    const eligible = rng.shuffle(order.filter((fact) => latest.has(fact.key)))
    const taken = new Set<string>()
    const choose = (count: number, fits: (fact: Fact, at: number) => boolean) =>
      eligible
        .filter((fact) => !taken.has(fact.key) && fits(fact, latest.get(fact.key) as number))
        .slice(0, count)
        .map((fact) => {
          taken.add(fact.key)
          return fact
        })
    if (epoch > 1) {
      const flips = choose(Math.max(1, Math.round(eligible.length * FLIP_SHARE)), (fact, at) => {
        return fact.kind === 'polarity' && at + 1 < fact.versions.length
      })
      const changes = choose(Math.round(eligible.length * CHANGE_SHARE), (fact, at) => {
        return fact.kind !== 'polarity' && at + 1 < fact.versions.length
      })
      const restates = choose(Math.round(eligible.length * RESTATE_SHARE), () => true)
      for (const fact of flips) {
        latest.set(fact.key, (latest.get(fact.key) as number) + 1)
        plan.contradicted.push(versionKey(fact.key, latest.get(fact.key) as number))
      }
      for (const fact of changes) {
        latest.set(fact.key, (latest.get(fact.key) as number) + 1)
        plan.updated.push(versionKey(fact.key, latest.get(fact.key) as number))
      }
      for (const fact of restates) plan.restated.push(versionKey(fact.key, latest.get(fact.key) as number))
      for (const fact of [...flips, ...changes, ...restates]) {
        scheduled.push({ fact, version: latest.get(fact.key) as number })
      }
    }
    order.forEach((fact, index) => {
      if (introducedIn(index) !== epoch) return
      latest.set(fact.key, 0)
      plan.new.push(versionKey(fact.key, 0))
      scheduled.push({ fact, version: 0 })
    })

    const statements: Statement[] = []
    for (const { fact, version } of scheduled) {
      const times = rng.chance(SECOND_WORDING) ? 2 : 1
      for (let i = 0; i < times; i++) {
        statements.push({ fact: fact.key, version, text: pickWording(fact, version, used, rng) })
      }
    }
    const pages = composePages(domain, seed, epoch, rng.shuffle(statements), rng)
    const old = rng.shuffle(allPages).slice(0, epoch > 1 ? OLD_URLS_SERVED : 0)
    allPages.push(...pages)
    epochs.push({ pages, plan, served: rng.shuffle([...pages, ...old].map((page) => page.url)), strays: [] })
  }
  return { domain: domain.key, topic, facts, epochs }
}

/**
 * Serves each topic, in every epoch, two pages of the other topics' same epoch (never a syndicated
 * copy), inserted among its own. Drawn from a random stream of their own, after every topic is made,
 * so the rest of the web is what it would be without them.
 */
function addStrays(topics: TopicWeb[], seed: number): void {
  for (const topic of topics) {
    topic.epochs.forEach((epoch, index) => {
      const rng = createRng(seed, 'strays', topic.domain, index + 1)
      const others = topics
        .filter((other) => other !== topic)
        .flatMap((other) => other.epochs[index]?.pages.filter((page) => !page.duplicateOf) ?? [])
      epoch.strays = rng
        .shuffle(others)
        .slice(0, STRAY_PAGES)
        .map((page) => page.url)
      for (const url of epoch.strays) epoch.served.splice(rng.int(0, epoch.served.length), 0, url)
    })
  }
}

/** The first `count` facts with the catalogue's mix of kinds kept: a smaller web still has contradictions. */
export function selectFacts(specs: FactSpec[], count: number): FactSpec[] {
  const rank = new Map<FactSpec, number>()
  for (const kind of ['figure', 'date', 'polarity'] as const) {
    const ofKind = specs.filter((spec) => spec.kind === kind)
    ofKind.forEach((spec, index) => {
      rank.set(spec, (index + 0.5) / ofKind.length)
    })
  }
  return [...specs].sort((a, b) => (rank.get(a) ?? 0) - (rank.get(b) ?? 0)).slice(0, count)
}

/** A wording of this version not used before if there is one (restatements are in other words). */
function pickWording(fact: Fact, version: number, used: Map<string, number[]>, rng: Rng): string {
  const wordings = fact.versions[version]?.wordings ?? []
  const key = versionKey(fact.key, version)
  const counts = used.get(key) ?? wordings.map(() => 0)
  const least = Math.min(...counts)
  const index = rng.pick(counts.flatMap((count, i) => (count === least ? [i] : [])))
  counts[index] = (counts[index] ?? 0) + 1
  used.set(key, counts)
  return wordings[index] as string
}

function composePages(domain: Domain, seed: number, epoch: number, statements: Statement[], rng: Rng): Page[] {
  const pages: Page[] = []
  const queue = [...statements]
  while (queue.length > 0) {
    const size = rng.int(2, 4)
    const on: Statement[] = []
    // Two wordings of one fact go on different pages.
    for (let i = 0; i < queue.length && on.length < size; ) {
      const next = queue[i] as Statement
      if (on.some((statement) => statement.fact === next.fact)) i++
      else on.push(...queue.splice(i, 1))
    }
    const site = rng.pick(domain.sites)
    const [opener, closer] = rng.shuffle(domain.boilerplate)
    const slug = on[0]?.fact.split('/')[1] ?? 'news'
    const url = `https://${site}/${seed}/e${epoch}/${slug}-${pages.length + 1}`
    const text = [
      `${opener} ${on[0]?.text}`,
      on
        .slice(1)
        .map((statement) => statement.text)
        .join(' '),
      closer,
    ]
      .filter(Boolean)
      .join('\n\n')
    const title = `${capitalized(domain.topic)}: ${slug.replaceAll('-', ' ')}`
    const page: Page = { url, title, text, statements: on }
    pages.push(page)
    if (rng.chance(DUPLICATE_PAGE)) {
      const mirror = rng.pick(domain.sites.filter((other) => other !== site))
      pages.push({
        url: `https://${mirror}/${seed}/e${epoch}/syndicated/${slug}-${pages.length + 1}`,
        title,
        text: `${syndication(site)}\n\n${text}`,
        statements: on,
        duplicateOf: url,
      })
    }
  }
  return pages
}

function syndication(site: string): string {
  return `This article first appeared on ${site}.`
}

function versionsOf(spec: FactSpec, rng: Rng): Version[] {
  switch (spec.kind) {
    case 'figure': {
      const values = figureValues(spec.range, spec.step, spec.trend, rng)
      return values.map((value) => ({ label: String(value), positive: true, wordings: spec.say(value) }))
    }
    case 'date': {
      const dates = slippingDates(spec.precision, spec.from, rng)
      return dates.map((when) => ({ label: dateLabel(when), positive: true, wordings: spec.say(when) }))
    }
    case 'polarity': {
      const yes = { label: 'yes', positive: true, wordings: spec.yes }
      const no = { label: 'no', positive: false, wordings: spec.no }
      return rng.chance(0.5) ? [yes, no] : [no, yes]
    }
  }
}

/**
 * Three distinct values: a first one in range, then two changes of 5-25% each in the trend's direction.
 * Counts from 1900 to 2099 are left out: the engine reads "2,050 jobs" as the year 2050 (a finding of
 * this benchmark), which would make the ground truth wrong by the engine's own reading.
 */
export function figureValues(range: [number, number], step: number, trend: 'up' | 'down' | 'any', rng: Rng): number[] {
  const round = (value: number) => {
    const rounded = Number((Math.round(value / step) * step).toFixed(6))
    if (rounded < 1900 || rounded >= 2100) return rounded
    return rounded - 1900 < 2100 - rounded ? 1900 - step : 2100
  }
  const values = [round(range[0] + rng.next() * (range[1] - range[0]))]
  while (values.length < 3) {
    const previous = values.at(-1) as number
    const sign = trend === 'up' ? 1 : trend === 'down' ? -1 : rng.chance(0.5) ? 1 : -1
    const target = previous * (1 + sign * (0.05 + rng.next() * 0.2))
    let next = round(target)
    for (let k = 1; values.includes(next); k++) next = round(target + sign * step * k)
    if (next <= 0) throw new Error(`a figure in ${range.join('-')} fell to ${next}`)
    values.push(next)
  }
  return values
}

/** Three dates, each later than the one before: a schedule that slips. */
function slippingDates(precision: 'year' | 'quarter' | 'month', from: number, rng: Rng): When[] {
  let months = (from + rng.int(0, 1)) * 12 + (precision === 'year' ? 0 : rng.int(0, 11))
  const dates: When[] = []
  for (let i = 0; i < 3; i++) {
    const year = Math.floor(months / 12)
    const month = (months % 12) + 1
    dates.push(
      precision === 'year'
        ? { year }
        : precision === 'quarter'
          ? { year, quarter: Math.ceil(month / 3) }
          : { year, month },
    )
    months += precision === 'year' ? 12 * rng.int(1, 2) : precision === 'quarter' ? 3 * rng.int(1, 3) : rng.int(2, 5)
  }
  return dates
}

function dateLabel(when: When): string {
  if (when.quarter) return `${when.year}-Q${when.quarter}`
  if (when.month) return `${when.year}-${String(when.month).padStart(2, '0')}`
  return String(when.year)
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
