// What changed: each claim of a run is compared with what memory holds and classified as new,
// updated (same subject, another figure or date), contradicted (the opposite statement) or confirmed
// (memory already holds it). Candidates come from the claims' subjects (and from embeddings when a
// model server provides them); a model judges them in one batched call when there is one, and rules
// that read figures, dates and negation judge otherwise. The rules overrule the model only on proof:
// a claim whose figures differ from its match is never confirmed, the same figures are no update, a
// count is never one quantity with a sum of money, and a near-verbatim restatement is never new.
// The rules confirm only on positive evidence (the same figures and dates, the same stance): a claim
// they cannot tell from its match is new, with the memory claim it may repeat or reverse beside it.
import { compareStatements, countsANoun, type Statements } from '#server/claims/figures.ts'
import { quoteText } from '#server/claims/quote.ts'
import {
  opposed,
  type Polarity,
  reversesStance,
  type Stem,
  sameStance,
  stemsOnce,
  subjectTerms,
} from '#server/claims/subject.ts'
import type { VerifiedClaim } from '#server/claims/verify.ts'

export type ClaimClass = 'new' | 'updated' | 'contradicted' | 'confirmed'

/** What classification needs of a claim memory holds. */
export type KnownClaim = {
  id: string
  text: string
  quote: string
  statements: Statements
  subject: string[]
  polarity: Polarity
  /** A unit vector (embeddings), when one was computed with the model in use. */
  vector?: number[]
}

/**
 * `related`: for a new claim, the memory claim about the same thing that the rules could neither
 * confirm nor tell apart from it (the stance differs in words they cannot read), shown beside it.
 */
export type Classified<K extends KnownClaim> = { claim: VerifiedClaim; class: ClaimClass; match?: K; related?: K }

/** One claim and the memory claims it might repeat, for a judge. */
export type JudgeItem = { claim: { text: string; quote: string }; candidates: Array<{ text: string; quote: string }> }
/** A judge's answer for item `index`: its class, and which candidate it matches (null for new). */
export type Verdict = { index: number; class: ClaimClass; candidate: number | null }
export type Judge = (items: JudgeItem[]) => Promise<Verdict[]>

/** Share of the shorter claim's words at which a decision turned round is about the same thing. */
const REVERSED_COVER = 0.34

/** Candidates shown to a judge per claim. */
export const MAX_CANDIDATES = 5
/** Subject overlap (IDF-weighted Jaccard) at which two claims are about one thing. */
const SAME_SUBJECT = 0.5
/** Overlap at which two claims stating the same figures are one fact in other words. */
const RELATED_SUBJECT = 0.25
/** Below this, a memory claim is no candidate at all. */
const MIN_CANDIDATE = 0.12
const MIN_COSINE = 0.55
/** Overlap at which a changed figure of the same unit is an update even when the judge is silent. */
const UPDATED_SUBJECT = 0.25

/**
 * Share of the shorter claim's weighted words the other has too: a narrative sentence wraps a fact
 * in clauses ("after ground surveys showed...") that sink a Jaccard, not this.
 */
const MIN_COVER = 0.34

type Candidate<K> = { known: K; lexical: number; cosine: number; cover: number }

/**
 * Classifies a run's claims against memory. `judge` (the model) is asked once about every claim that
 * has candidates; when it fails or answers nonsense, the rules decide.
 */
export async function classifyClaims<K extends KnownClaim>(
  claims: Array<VerifiedClaim & { vector?: number[] }>,
  memory: K[],
  judge?: Judge,
): Promise<Classified<K>[]> {
  // Against an empty memory every claim is new (no candidate, no restatement, nothing to ask).
  if (memory.length === 0) return claims.map((claim) => ({ claim, class: 'new' }))
  const wordings = new Map<KnownClaim | VerifiedClaim, string[][]>()
  const stem = stemsOnce()
  for (const item of [...claims, ...memory]) wordings.set(item, subjectWordings(item, stem))
  const weight = idfWeights([...wordings.values()].flat())
  const byQuote = new Map<string, K>()
  for (const known of memory) {
    for (const text of [known.quote, known.text]) if (text) byQuote.set(quoteText(text), known)
  }
  const overlap = (claim: VerifiedClaim, known: K) =>
    bestOverlap(wordings.get(claim) ?? [claim.subject], wordings.get(known) ?? [known.subject], weight)
  const candidates = claims.map((claim) => candidatesFor(claim, memory, overlap))
  const restatementOf = (claim: VerifiedClaim) =>
    byQuote.get(quoteText(claim.quote)) ?? byQuote.get(quoteText(claim.text))
  // A word-for-word restatement is confirmed without asking: the judge is paid only for the doubtful.
  const asked = claims
    .map((_, index) => index)
    .filter((index) => (candidates[index]?.length ?? 0) > 0 && !restatementOf(claims[index] as VerifiedClaim))
  let verdicts = new Map<number, Verdict>()
  if (judge && asked.length > 0) {
    const items = asked.map((index) => ({
      claim: { text: claims[index]?.text ?? '', quote: claims[index]?.quote ?? '' },
      candidates: (candidates[index] ?? []).map(({ known }) => ({ text: known.text, quote: known.quote })),
    }))
    try {
      verdicts = new Map((await judge(items)).map((verdict) => [asked[verdict.index] as number, verdict]))
    } catch {
      verdicts = new Map() // the rules decide
    }
  }

  return claims.map((claim, index) => {
    const found = candidates[index] ?? []
    const restated = restatementOf(claim)
    if (restated) return guarded(claim, 'confirmed', restated)
    const ruled = ruleVerdict(claim, found)
    const verdict = verdicts.get(index)
    const chosen = verdict?.candidate == null ? undefined : found[verdict.candidate]
    // A judge's match stands on a claim that may be about the same thing (aboutTheSame); the rules
    // then overrule it only on proof (guarded). A reversal the rules cannot read in the words
    // ("pulled the application" / "filed an application") is no proof against the judge.
    const related = chosen !== undefined && aboutTheSame(claim, chosen)
    if (!verdict || (verdict.class !== 'new' && !related)) {
      return ruled.related
        ? { claim, class: 'new' as const, related: ruled.related }
        : guarded(claim, ruled.class, ruled.match)
    }
    // The model's "new", or its match with another claim, does not stand against a same-subject
    // match the rules are sure of.
    if (verdict.class === 'new') {
      return ruled.sure ? guarded(claim, ruled.class, ruled.match) : { claim, class: 'new' as const }
    }
    if (ruled.sure && ruled.match !== chosen?.known && (chosen?.lexical ?? 0) < SAME_SUBJECT)
      return guarded(claim, ruled.class, ruled.match)
    const judged = guarded(claim, verdict.class, chosen?.known)
    // A "confirmed" the figures disprove was a match with the wrong claim, or a changed figure: an
    // update only when the two are plainly about one thing; otherwise new, beside what memory held.
    if (verdict.class === 'confirmed' && judged.class !== 'confirmed' && chosen && chosen.lexical < RELATED_SUBJECT)
      return { claim, class: 'new', related: chosen.known }
    return judged
  })
}

/** The rules' verdict on the best candidate; `sure` when the subjects are plainly the same. */
function ruleVerdict<K extends KnownClaim>(
  claim: VerifiedClaim,
  found: Candidate<K>[],
): { class: ClaimClass; match?: K; sure: boolean; related?: K } {
  // Embeddings may rank first a candidate the words do not support; the rules go by the words. A
  // claim that states a figure or a date is held against the closest memory claim that states one
  // it can be compared with, when that one is related at all: its earlier version is that one, not
  // a claim about the same thing that states nothing to compare.
  const closest = (pool: Candidate<K>[]) =>
    pool.reduce<Candidate<K> | undefined>((top, next) => (!top || next.lexical > top.lexical ? next : top), undefined)
  const comparable = closest(
    found.filter(({ known }) => compareStatements(claim.statements, known.statements).comparable),
  )
  const best = comparable && comparable.lexical >= RELATED_SUBJECT ? comparable : closest(found)
  // A claim that gives memory's figure beside a new one of the same unit ("$545, down from $690") says
  // which figure it replaces, in whatever words it names the thing.
  const replaced = found.find(({ known }) => restatesAndChanges(claim.statements, known.statements))
  if (replaced && (!best || best.lexical < SAME_SUBJECT)) return { class: 'updated', match: replaced.known, sure: true }
  // A decision turned round ("voted down" / "approved", "withdrew" / "filed") on a thing both name is a
  // reversal, whatever the tallies: a vote lost 26-22 is not an update of one won 31-17.
  // Each naming a thing the other does not ("a factory in Texas" / "its Valencia factory") are two
  // decisions, not one turned round.
  const reversed = closest(
    found.filter(
      ({ known, lexical, cover }) =>
        (lexical >= RELATED_SUBJECT || cover >= REVERSED_COVER) &&
        reversesStance(claim.polarity, known.polarity) &&
        !namesDiffer(claim, known),
    ),
  )
  if (reversed && reversed.lexical >= (best?.lexical ?? 0) - 0.1)
    return { class: 'contradicted', match: reversed.known, sure: reversed.lexical >= SAME_SUBJECT }
  if (!best || best.lexical < RELATED_SUBJECT) return { class: 'new', sure: false }
  const comparison = compareStatements(claim.statements, best.known.statements)
  const differs = comparison.figuresDiffer || comparison.datesDiffer
  // Positive evidence confirms; without it the claim is new, with this memory claim beside it.
  const confirmedOrUndecided = sameStance(claim.polarity, best.known.polarity, comparison.comparable && !differs)
    ? { class: 'confirmed' as const, match: best.known, sure: true }
    : { class: 'new' as const, sure: false, related: best.known }
  if (best.lexical >= SAME_SUBJECT) {
    if (opposed(claim.polarity, best.known.polarity) && !comparison.figuresDiffer) {
      return { class: 'contradicted', match: best.known, sure: true }
    }
    if (differs) return { class: 'updated', match: best.known, sure: true }
    return confirmedOrUndecided
  }
  // Related but not plainly the same subject: the same figures and dates in the same stance make it
  // the same fact in other words, evidence strong enough to stand against a judge's "new".
  if (comparison.comparable && !differs && !opposed(claim.polarity, best.known.polarity)) {
    return confirmedOrUndecided
  }
  // A figure of the same unit that changed, on a subject that overlaps well: an update in other words.
  if (comparison.figuresDiffer && best.lexical >= UPDATED_SUBJECT)
    return { class: 'updated', match: best.known, sure: true }
  return { class: 'new', sure: false }
}

/**
 * The rules no judge may break, and only on hard evidence: "confirmed" stands unless a quantity both
 * state has other values in each, with no value in common ("$247m" is not proven other than "$247m,
 * up from $212m"); "updated" stands unless every quantity and date they share is the same; a
 * "contradiction" that is only another figure, in the same stance words, is an update.
 */
function guarded<K extends KnownClaim>(claim: VerifiedClaim, verdict: ClaimClass, match: K | undefined): Classified<K> {
  if (!match || verdict === 'new') return { claim, class: 'new' }
  if (!sameFactPossible(claim, match)) return { claim, class: 'new' }
  const comparison = compareStatements(claim.statements, match.statements)
  const differs = comparison.figuresDiffer || comparison.datesDiffer
  const provablyOther = differs && !sharesValue(claim.statements, match.statements)
  const provablySame = comparison.comparable && !differs
  const against = opposed(claim.polarity, match.polarity)
  if (verdict === 'confirmed' && provablyOther) return { claim, class: against ? 'contradicted' : 'updated', match }
  if (verdict === 'updated' && provablySame) return { claim, class: against ? 'contradicted' : 'confirmed', match }
  if (verdict === 'contradicted' && provablyOther && sameStance(claim.polarity, match.polarity, false))
    return { claim, class: 'updated', match }
  return { claim, class: verdict, match }
}

function candidatesFor<K extends KnownClaim>(
  claim: VerifiedClaim & { vector?: number[] },
  memory: K[],
  overlap: (claim: VerifiedClaim, known: K) => { lexical: number; cover: number },
): Candidate<K>[] {
  const scored: Candidate<K>[] = []
  for (const known of memory) {
    const { lexical, cover } = overlap(claim, known)
    const cosine = claim.vector && known.vector ? dot(claim.vector, known.vector) : 0
    if (lexical > 0 || cosine >= MIN_COSINE || sharesDistinctiveValue(claim.statements, known.statements))
      scored.push({ known, lexical, cosine, cover })
  }
  const about = scored.filter((candidate) => aboutTheSame(claim, candidate))
  about.sort((a, b) => closeness(b) - closeness(a) || b.lexical - a.lexical)
  // The closest claim stating a figure or date this one can be compared with is always shown: among
  // many claims about one plant or one company, that is the one an update replaces.
  const top = about.slice(0, MAX_CANDIDATES)
  const comparable = about.find(({ known }) => compareStatements(claim.statements, known.statements).comparable)
  if (comparable && !top.includes(comparable)) top[MAX_CANDIDATES - 1] = comparable
  // So is the closest stating one of its numbers, whatever noun each puts after it.
  const sameNumber = about.find(({ known }) => sharesValue(claim.statements, known.statements))
  // (With fewer than MAX_CANDIDATES scored, every one is among them already.)
  if (sameNumber && !top.includes(sameNumber)) top[MAX_CANDIDATES - 2] = sameNumber
  return top
}

/**
 * Whether a memory claim may be about what `claim` is about, on some evidence a judge's match can rest
 * on: enough words in common (of the two, or of the shorter), close embeddings, a figure of the same
 * unit or a date to compare on a subject they share a word of, or one of its numbers.
 */
function aboutTheSame<K extends KnownClaim>(claim: VerifiedClaim, candidate: Candidate<K>): boolean {
  const { known, lexical, cosine, cover } = candidate
  if (lexical >= MIN_CANDIDATE || cover >= MIN_COVER || cosine >= MIN_COSINE) return true
  if (sharesDistinctiveValue(claim.statements, known.statements)) return true
  return lexical > 0 && figuresMayMeet(claim.statements, known.statements)
}

/**
 * Figures that may state one quantity: of a common unit or date, sharing a value, or both counts of
 * things named by nouns, which may be one thing in other words ("seats" / "spectators").
 */
function figuresMayMeet(a: Statements, b: Statements): boolean {
  return (
    compareStatements(a, b).comparable ||
    sharesValue(a, b) ||
    (a.figures.some(countsANoun) && b.figures.some(countsANoun))
  )
}

function closeness<K>(candidate: Candidate<K>): number {
  return Math.max(candidate.lexical, candidate.cosine, candidate.cover / 2)
}

/**
 * Two claims that both state figures are proven to be two facts only when their figures are of kinds
 * that cannot be one quantity: no common unit, date or value, and not both counts of things named by
 * nouns, which may be one quantity in other words ("22,500 spectators" / "24,000 seats"), as may the
 * same number under another noun ("420 positions" / "420 people").
 */
function sameFactPossible(claim: VerifiedClaim, known: KnownClaim): boolean {
  const bothStateFigures = claim.statements.figures.length > 0 && known.statements.figures.length > 0
  return !bothStateFigures || figuresMayMeet(claim.statements, known.statements)
}

/** Each names someone or something (a capitalised word after the first, not a date) the other does not. */
function namesDiffer(a: { text: string; quote: string }, b: { text: string; quote: string }): boolean {
  const [left, right] = [namesIn(a), namesIn(b)]
  const missing = (from: Set<string>, other: Set<string>) => [...from].some((name) => !other.has(name))
  return missing(left, right) && missing(right, left)
}

const CALENDAR =
  /^(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/u

function namesIn({ text, quote }: { text: string; quote: string }): Set<string> {
  const names = new Set<string>()
  for (const sentence of new Set([text, quote])) {
    const words = sentence.normalize('NFKC').match(/[\p{L}][\p{L}\p{N}'’-]*/gu) ?? []
    for (const word of words.slice(1)) {
      const lower = word.toLowerCase().replace(/['’]s$/u, '')
      if (/^\p{Lu}/u.test(word) && !CALENDAR.test(lower)) names.add(lower)
    }
  }
  return names
}

/** `claim` states a figure of `known` and, in the same unit, one `known` does not. */
function restatesAndChanges(claim: Statements, known: Statements): boolean {
  for (const unit of new Set(claim.figures.map((figure) => figure.unit))) {
    const theirs = new Set(known.figures.filter((figure) => figure.unit === unit).map((figure) => figure.value))
    const ours = claim.figures.filter((figure) => figure.unit === unit).map((figure) => figure.value)
    if (ours.some((value) => theirs.has(value)) && ours.some((value) => !theirs.has(value))) return true
  }
  return false
}

/**
 * A figure both state that is unlikely to meet twice by chance: a sum of money or a measure of the
 * same unit, or a count of a hundred or more ("£142m" / "142 million pounds", "3,200 people" / "a
 * payroll of 3,200"), however few words the two sentences share.
 */
function sharesDistinctiveValue(a: Statements, b: Statements): boolean {
  return a.figures.some((figure) =>
    b.figures.some(
      (other) =>
        other.value === figure.value &&
        (Math.abs(figure.value) >= 100 || (other.unit === figure.unit && !countsANoun(figure))),
    ),
  )
}

/** Some figure of one is numerically a figure of the other, whatever each says it counts. */
function sharesValue(a: Statements, b: Statements): boolean {
  const values = new Set(a.figures.map((figure) => figure.value))
  return b.figures.some((figure) => values.has(figure.value))
}

/**
 * A claim is worded twice: in the model's words and in its quote, the source's own words. Two claims
 * are as close as their closest wordings: a changed figure restated by a page in the words memory
 * quoted before is plainly the same subject, however the model paraphrased it.
 */
function subjectWordings(claim: { text: string; quote: string; subject: string[] }, stem: Stem): string[][] {
  const quote = claim.quote.trim()
  return quote && quote !== claim.text.trim() ? [claim.subject, subjectTerms(quote, stem)] : [claim.subject]
}

/** The closest pair of wordings: by weighted Jaccard, and by the shorter one's share covered. */
function bestOverlap(
  a: string[][],
  b: string[][],
  weight: (term: string) => number,
): { lexical: number; cover: number } {
  let lexical = 0
  let cover = 0
  for (const left of a) {
    for (const right of b) {
      const { shared, union, smaller } = weightedOverlap(left, right, weight)
      if (union > 0) lexical = Math.max(lexical, shared / union)
      if (smaller > 0) cover = Math.max(cover, shared / smaller)
    }
  }
  return { lexical, cover }
}

function idfWeights(documents: string[][]): (term: string) => number {
  const frequency = new Map<string, number>()
  for (const terms of documents) for (const term of new Set(terms)) frequency.set(term, (frequency.get(term) ?? 0) + 1)
  const total = documents.length
  return (term) => Math.log(1 + total / (frequency.get(term) ?? 1))
}

function weightedOverlap(
  a: string[],
  b: string[],
  weight: (term: string) => number,
): { shared: number; union: number; smaller: number } {
  const right = new Set(b)
  let shared = 0
  let left = 0
  let theirs = 0
  for (const term of new Set(a)) {
    const w = weight(term)
    left += w
    if (right.has(term)) shared += w
  }
  for (const term of right) theirs += weight(term)
  return { shared, union: left + theirs - shared, smaller: Math.min(left, theirs) }
}

function dot(a: number[], b: number[]): number {
  let sum = 0
  for (let i = 0; i < Math.min(a.length, b.length); i++) sum += (a[i] as number) * (b[i] as number)
  return sum
}
