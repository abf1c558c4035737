// Themes: the content words several findings share. A bullet report groups its findings under them
// (server/research/report-render.ts); the extractive synthesizer counts them (extractive.ts).
import { contentTerms, foldPlural, STOPWORDS } from '#server/claims/terms.ts'
import { stripCitations } from '#server/research/report-citations.ts'
import { wordTokens } from '#server/text/words.ts'

/** Fewer findings than this read better as one list than as themes of one or two. */
const MIN_FINDINGS_FOR_THEMES = 5
const MAX_THEMES = 4

// A hyphen inside a word ("air-source"), not a minus sign ("-25") or a dash between spaces.
const COMPOUND_HYPHEN = /(?<=[\p{L}\p{N}])-(?=[\p{L}\p{N}])/gu

// Words that carry meaning in a sentence but not in a theme: two findings both saying "year",
// "three", "many" or "an average of" have nothing in common worth naming. Numbers are left out too
// (see isThemePart).
const THEME_STOPWORDS = new Set(
  (
    'year years month months week weeks day days hour hours time times today three four five six seven eight nine ten ' +
    'hundred hundreds thousand thousands million millions billion billions first second third last next half ' +
    'percent according ago earlier later recent recently soon yesterday tomorrow ' +
    'many several various lot lots least less fewer enough another else etc like already always never almost nearly ' +
    'average median mean total'
  ).split(' '),
)

/** A word that can name a theme, folded as contentTerms folds it, and as the text wrote it. */
export type ThemeWord = { term: string; word: string }

/**
 * The words that can name a theme shared by several findings: content words, but not numbers, number
 * and time words, or Latin words of one or two letters ("kw", "uk"). A hyphenated compound of such
 * words ("air-source") is one word. Words in `excluded` (folded terms, such as the topic's), and
 * compounds made only of them, are left out.
 */
export function themeWords(text: string, excluded: ReadonlySet<string> = new Set()): ThemeWord[] {
  const words: ThemeWord[] = []
  for (const token of wordTokens(stripCitations(text).replace(COMPOUND_HYPHEN, '_'))) {
    const parts = token.split('_').filter(Boolean)
    const meaningful = parts.filter(isThemePart)
    if (parts.length > 1 && meaningful.length === parts.length) {
      if (parts.every((part) => excluded.has(foldPlural(part)))) continue
      const term = [...parts.slice(0, -1), foldPlural(parts.at(-1) as string)].join('-')
      words.push({ term, word: parts.join('-') })
      continue
    }
    for (const part of meaningful) {
      if (!excluded.has(foldPlural(part))) words.push({ term: foldPlural(part), word: part })
    }
  }
  return words
}

function isThemePart(token: string): boolean {
  return !STOPWORDS.has(token) && !saysWhenOrHowMuch(token) && !/^[a-z]{1,2}$/.test(token)
}

/** A word of time, number or quantity ("today", "2026", "three", "many"): it says when or how much, not what. */
export function saysWhenOrHowMuch(word: string): boolean {
  return THEME_STOPWORDS.has(word) || /\p{N}/u.test(word)
}

/**
 * Groups findings under the content word most of them share, greedily, up to four themes; the rest
 * go under "Other findings". A word every finding (or the topic) contains says nothing about any one
 * of them, so it never names a theme.
 */
export function themeGroups<Finding extends { text: string }>(
  findings: Finding[],
  topic: string | undefined,
): Array<{ title: string; members: Finding[] }> {
  const single = [{ title: 'Findings', members: findings }]
  if (findings.length < MIN_FINDINGS_FOR_THEMES) return single
  const excluded = new Set(contentTerms(topic ?? ''))
  const termsOf = findings.map((finding) => new Set(themeWords(finding.text, excluded).map(({ term }) => term)))
  const remaining = new Set(findings.keys())
  const groups: Array<{ title: string; members: Finding[] }> = []
  while (groups.length < MAX_THEMES) {
    const holders = new Map<string, number[]>()
    for (const index of remaining) {
      for (const term of termsOf[index] ?? []) {
        holders.set(term, [...(holders.get(term) ?? []), index])
      }
    }
    let best: [string, number[]] | undefined
    for (const entry of holders) {
      const everywhere = termsOf.every((terms) => terms.has(entry[0]))
      if (entry[1].length >= 2 && !everywhere && entry[1].length > (best?.[1].length ?? 0)) best = entry
    }
    if (!best) break
    const [term, members] = best
    groups.push({ title: themeTitle(term, findings[members[0] as number]?.text ?? term), members: [] })
    for (const index of members) {
      remaining.delete(index)
      groups.at(-1)?.members.push(findings[index] as Finding)
    }
  }
  if (groups.length === 0) return single
  if (remaining.size > 0) {
    groups.push({ title: 'Other findings', members: [...remaining].map((index) => findings[index] as Finding) })
  }
  return groups
}

/** The theme word as a finding wrote it ("Batteries", not the folded "battery"), capitalized. */
/** How `text` writes the theme `term` (the word as it stands, not its folded form). */
export function surfaceForm(term: string, text: string): string {
  return themeWords(text).find((word) => word.term === term)?.word ?? term
}

function themeTitle(term: string, text: string): string {
  const surface = surfaceForm(term, text)
  return surface.charAt(0).toUpperCase() + surface.slice(1)
}
