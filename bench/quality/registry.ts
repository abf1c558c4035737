// What every sentence of the synthetic web states: the registry maps a sentence (as the quote check
// normalises it) to the fact version it states, or to nothing (boilerplate). The scorer reads ground
// truth through it, and the sloppy model "understands" the pages through it.
import type { Fact } from '#bench/quality/web.ts'

export type RegistryEntry = { kind: 'fact'; fact: string; version: number } | { kind: 'boilerplate' }

/** Text as the quote check compares it: NFKC, case, quote marks, dashes and whitespace folded. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['‘’‚‛′"“”„‟″«»‹›`´]/gu, '"')
    .replace(/[‐‑‒–—―−]/gu, '-')
    .replace(/\s+/gu, ' ')
    .trim()
}

/** The registry's key: normalised, without the closing punctuation a quote may leave out. */
function registryKey(text: string): string {
  return normalizeText(text).replace(/[.!?]+$/u, '')
}

/** What a sentence states; a quote that is part of one sentence (20 characters or more) finds it too. */
export function lookup(registry: Map<string, RegistryEntry>, text: string): RegistryEntry | undefined {
  const key = registryKey(text)
  const exact = registry.get(key)
  if (exact || key.length < 20) return exact
  const holders = [...registry].filter(([sentence]) => sentence.includes(key))
  return holders.length === 1 ? holders[0]?.[1] : undefined
}

/** Every wording of every version, and every sentence that states nothing, by registry key. */
export function buildRegistry(facts: Iterable<Fact>, boilerplate: string[]): Map<string, RegistryEntry> {
  const registry = new Map<string, RegistryEntry>()
  const register = (text: string, entry: RegistryEntry) => {
    const key = registryKey(text)
    const known = registry.get(key)
    if (known && JSON.stringify(known) !== JSON.stringify(entry)) throw new Error(`two meanings for "${text}"`)
    registry.set(key, entry)
  }
  for (const fact of facts) {
    fact.versions.forEach((version, index) => {
      for (const wording of version.wordings) register(wording, { kind: 'fact', fact: fact.key, version: index })
    })
  }
  for (const sentence of boilerplate) register(sentence, { kind: 'boilerplate' })
  return registry
}
