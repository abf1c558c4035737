import { expect, test } from 'vitest'
import { pagesAboutTopic, readPage } from '#server/research/page-subject.ts'
import { learnedNames, topicNames } from '#server/research/topic-names.ts'

function page(id: number, slug: string, title: string, paragraphs: string[]) {
  return readPage({ id, url: `https://www.herald.example/news/2027/05/${slug}`, title, text: paragraphs.join('\n\n') })
}

function about(topic: string, pages: ReturnType<typeof page>[], known: string[] = []): number[] {
  return [...(pagesAboutTopic(topic, pages, new Set(), known) ?? [])].sort()
}

test("a topic's names are its capitalised words; its place and an initialism are not names of it", () => {
  const { names, places } = topicNames('Ostrava Chemicals chlorine leak at Tenby Marsh')
  expect(names.map((name) => name.terms)).toEqual([['ostrava', 'chemical']])
  expect(places.map((place) => place.terms)).toEqual([['tenby', 'marsh']])
  expect(topicNames('AI agents in production').names).toEqual([])
  expect(topicNames('heat pumps in cold climates').names).toEqual([])
})

test('the names its stories keep using are learned, and named by the words they never write in lower case', () => {
  const openings = [
    'Drivers at Kellow Coaches vote to strike. Drivers employed by Kellow Coaches backed walkouts, the union said.',
    'Kellow offer rejected. The Transport Workers Union said Kellow Coaches had offered 3%.',
    'Strike dates named. Kellow Coaches drivers will walk out on 4 June, the union said, and coaches will stay in the depot.',
  ]
  const learned = learnedNames([openings, []], [])
  const kellow = learned.find((name) => name.terms[0] === 'kellow')
  // "coaches" is written in lower case too: the company is told by "Kellow".
  expect(kellow).toEqual({ terms: ['kellow', 'coach'], marks: ['kellow'] })
  // In one opening only: not a name the stories keep using.
  expect(learned.some((name) => name.terms[0] === 'transport')).toBe(false)
})

test("a page that names the topic's name within another name, or shares only its common words, is another story", () => {
  const topic = 'Wendle music festival licence'
  const licence = page(1, 'police-object-to-wendle-festival', 'Police object to Wendle Festival licence', [
    'Police have formally objected to the licence application for the Wendle Festival, saying the organiser has not shown it can keep a crowd of that size safe.',
  ])
  const show = page(2, 'wendle-show-record-entries', 'Wendle Show returns with record entries', [
    'The Wendle Show will have more cattle than ever this year, and its organisers could not be happier about it, with entries up a fifth on last year.',
  ])
  // Two of the topic's words, but another festival and no name of this one.
  const food = page(3, 'food-festival-returns', 'Food festival returns to the quay', [
    'The music stage at the food festival doubled in size this year, the organisers said, after crowds grew by a third.',
  ])
  expect(about(topic, [licence, show, food])).toEqual([1])
})

test('a page names the topic by a name its stories use ("the company", the operator), learned from memory', () => {
  const topic = 'Ambrey bus drivers strike'
  const operator = page(1, 'drivers-turn-down-offer', 'Drivers turn down offer and name new dates', [
    'Bus drivers at Kellow Coaches have voted to reject the company’s latest pay offer, by 58% to 42%.',
  ])
  // A survey of drivers everywhere: the topic's common words, none of its names.
  const survey = page(2, 'driver-survey', 'Pay overtakes hours as drivers’ top complaint, survey finds', [
    'Pay has overtaken shift patterns as the biggest complaint among bus drivers, according to the latest survey of the industry.',
  ])
  const known = [
    'Drivers employed by Kellow Coaches are due to strike from Monday 16 February.',
    'Kellow Coaches carries about 48,000 passengers a day across Ambrey.',
    'Kellow has offered a rise of 4%, which the union says falls short.',
  ]
  expect(about(topic, [operator, survey], known)).toEqual([1])
  // Without memory, the operator's page names nothing of the topic but its words in its lede.
  expect(about(topic, [operator, survey])).toEqual([])
})

test('a name of several words written whole, or by its common words, names the topic', () => {
  const topic = 'Corrach National Park entry fee'
  const authority = page(1, 'board-agrees-parking-charge', 'Board agrees visitor parking charge', [
    'The board of Corrach National Park Authority agreed on Monday to introduce a daily parking charge of £7 per car for visitors.',
  ])
  const commonWords = page(2, 'minister-signs-off-park-order', 'Minister signs off car park order', [
    'The minister on Monday approved the order that allows the national park authority to charge for parking from 1 June.',
  ])
  expect(about(topic, [authority, commonWords])).toEqual([1, 2])
})
