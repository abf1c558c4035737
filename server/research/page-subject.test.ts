import { expect, test } from 'vitest'
import {
  isFurniture,
  pagesAboutTopic,
  quotesSomeone,
  readPage,
  speaksToReader,
  topicSubjectTerms,
} from '#server/research/page-subject.ts'

function page(id: number, url: string, title: string, paragraphs: string[]) {
  return readPage({ id, url, title, text: paragraphs.join('\n\n') })
}

const lede =
  'The Brackwater ferry will stop running on Sundays from next month, the operator said on Tuesday, after a fall in winter passengers.'

test('a review, a forecast or a column that names the topic in its lede is about something else unless its headline names the topic', () => {
  const news = page(
    1,
    'https://www.gazette.example/news/2026/11/ferry-sundays',
    'Brackwater ferry to stop Sunday sailings',
    [lede],
  )
  const weather = page(2, 'https://www.gazette.example/weather/2026/11/gales', 'Gales ease in time for the regatta', [
    'Gales will ease by Saturday, and the Brackwater ferry expects to run to its usual timetable all weekend.',
  ])
  const review = page(3, 'https://www.gazette.example/news/2026/11/salt-loft', 'Review: The Salt Loft, Harbour Road', [
    'The Salt Loft sits by the Brackwater ferry slipway, and its crab sandwich is worth the crossing alone.',
  ])
  const column = page(4, 'https://www.gazette.example/opinion/2026/11/ferry', 'Column: Save the Brackwater ferry', [
    'Nobody who has taken the Brackwater ferry on a winter morning would let it go without a fight.',
  ])
  const about = pagesAboutTopic('Brackwater ferry', [news, weather, review, column], new Set())
  expect([...(about ?? [])].sort()).toEqual([1, 4])
  // A topic of that kind itself takes its reviews.
  expect([...(pagesAboutTopic('restaurant reviews near the Brackwater ferry', [review], new Set()) ?? [])]).toEqual([3])
})

test("a question and words to the reader are the site's; a quoted one is a person's, a first person is an author's", () => {
  expect(speaksToReader('Is intermittent fasting safe after 60?')).toBe(true)
  // A paper's or a forum post's first person states its findings.
  expect(speaksToReader('Our cathodes kept 92 percent of their capacity after 3000 cycles in our tests.')).toBe(false)
  expect(speaksToReader('The football stories that matter, in your inbox every weekday.')).toBe(true)
  expect(speaksToReader('Manage preferences, or accept all to continue.')).toBe(true)
  expect(speaksToReader('Velorastat went on sale in September.')).toBe(false)
  // A verb that opens a sentence with a capital is still a bid, though the tagger reads a noun.
  expect(speaksToReader('Use the station car park or the Mill Lane field.')).toBe(true)
  expect(speaksToReader('Close to 500 people attended the meeting.')).toBe(false)
  expect(speaksToReader('Contact us on the number below.')).toBe(true)
  expect(speaksToReader('Share prices fell sharply on Monday.')).toBe(false)
  expect(speaksToReader('Park managers across the country have read the statement.')).toBe(false)
  expect(speaksToReader('Yesterday the council approved the plan.')).toBe(false)
  expect(speaksToReader('Plans for the stadium were approved.')).toBe(false)
  expect(speaksToReader('Drivers at Wensholme voted to strike.')).toBe(false)
  expect(speaksToReader('"We will appeal," the company said.')).toBe(false)
  expect(speaksToReader('The council approved the plan by 31 votes to 17.')).toBe(false)
})

test("quotation marks around a term set it off; a quote, a quote left open and a speaker's few words are someone's", () => {
  expect(quotesSomeone('The council has recruited 40 "digital helpers" to show readers the new machines.')).toBe(false)
  expect(quotesSomeone('Residents call it the "blue route" and the "old road".')).toBe(false)
  expect(quotesSomeone('Cookies help us keep the Courier free.')).toBe(false)
  expect(quotesSomeone('"We will appeal against the decision," the company said.')).toBe(true)
  // A quote that runs on from the sentence before opens or closes in this one.
  expect(quotesSomeone('We will not decide until we are satisfied the modelling is correct."')).toBe(true)
  // A few words beside a verb of speaking are the speaker's.
  expect(quotesSomeone('She said the cuts were "a step backwards" for the town.')).toBe(true)
  // And a sentence that sets off a term still speaks to its reader.
  expect(speaksToReader('By clicking "OK" you agree to our use of cookies.')).toBe(true)
})

test('a copyright line and a dateline are the page furniture, though each holds a number; a dated statement is not', () => {
  expect(isFurniture('Copyright 2026 KDNM-TV.')).toBe(true)
  expect(isFurniture('The Ledger Business Daily © 2026 | Corrections | Contact the newsroom')).toBe(true)
  expect(isFurniture('July 16, 2026, 6:30 a.m.')).toBe(true)
  expect(isFurniture('Updated: 12 March 2026 09:14 GMT')).toBe(true)
  expect(isFurniture('The vote is on July 16, 2026.')).toBe(false)
  // A contact line: a telephone number or an email address.
  expect(isFurniture('Media enquiries: Communications Team, 01632 960418 (Monday to Friday, 9am to 5pm).')).toBe(true)
  expect(isFurniture('Media enquiries: press office, press@ashcombe-dc[.]example')).toBe(true)
  expect(isFurniture('Call +44 20 7946 0958 to book.')).toBe(true)
  expect(isFurniture('The fund rose from 2,400 to 160 000 in 2026.')).toBe(false)
  expect(isFurniture('Entries reached 412 in 2026, beating 367 in 2019.')).toBe(false)
  expect(isFurniture('The copyright holder sued the station in 2026.')).toBe(false)
  // A cookie notice, on a site of one page as on a site of many: what the site does with cookies.
  expect(isFurniture('We use cookies to make booking work and to improve our website.')).toBe(true)
  expect(isFurniture('Cookies help us run this site.')).toBe(true)
  expect(isFurniture('Tailwind uses cookies to measure readership.')).toBe(true)
  expect(isFurniture("We'd also like to set analytics cookies to help us improve it.")).toBe(true)
  // A bakery's cookies are counted and baked.
  expect(isFurniture('The Daneford line baked 40,000 cookies a day until it closed in March.')).toBe(false)
})

test("a headline naming only the topic's place is another story from the same place", () => {
  expect([...topicSubjectTerms('Ostrava Chemicals chlorine leak at Tenby Marsh')]).toEqual([
    'ostrava',
    'chemical',
    'chlorine',
    'leak',
  ])
  // A condition is no place: "in cold climates" stays in what the topic is about.
  expect(topicSubjectTerms('heat pumps in cold climates').has('cold')).toBe(true)
  const leak = page(1, 'https://www.echo.example/news/2026/03/chlorine-leak', 'Chlorine leak forces evacuation', [
    'Hundreds of people were told to stay indoors after chlorine escaped from the Ostrava Chemicals works at Tenby Marsh.',
  ])
  const pool = page(2, 'https://www.echo.example/news/2026/04/pool-reopens', 'Tenby Marsh pool reopens after refit', [
    'Swimmers queued from seven in the morning as the town pool opened its doors again after a refit that took most of the winter.',
    'The main pool has new tiles, a moveable floor for lessons and changing rooms that families have asked for since 2019.',
    'Season tickets go on sale next week, and the first lane swims are already fully booked for the month.',
    'The leisure centre was used as a rest centre during the chlorine leak in March.',
  ])
  const about = pagesAboutTopic('Ostrava Chemicals chlorine leak at Tenby Marsh', [leak, pool], new Set())
  expect([...(about ?? [])]).toEqual([1])
})

test("a headline that writes the topic's word inside another name is another story, in sentence case", () => {
  const news = page(
    1,
    'https://www.courier.example/news/2027/02/library',
    'Wexcombe library to shut its doors in March',
    [
      'Wexcombe library will close on 31 March, the county council confirmed on Monday, ending 94 years of lending on Bell Street.',
    ],
  )
  const harriers = page(
    2,
    'https://www.courier.example/news/2027/02/relay',
    'Wexcombe Harriers take the county relay title',
    [
      'The Wexcombe Harriers won the county relay title on Saturday, their first since 2019, on a course turned to mud by a week of rain.',
    ],
  )
  // A party named after the town it serves is the story's when its words are all the topic's.
  const town = page(3, 'https://www.post.example/news/2027/02/wexcombe', "Wexcombe's readers sign petition", [
    'More than 2,000 people have signed a petition against the closure of the library, organisers said.',
  ])
  const about = pagesAboutTopic('Wexcombe library closure', [news, harriers, town], new Set())
  expect([...(about ?? [])].sort()).toEqual([1, 3])
  // A headline in title case capitalises every word: its names cannot be told, so the word counts.
  const titled = { ...harriers, id: 4, title: 'Wexcombe Harriers Take The County Relay Title' }
  expect(pagesAboutTopic('Wexcombe library closure', [news, titled], new Set())?.has(4)).toBe(true)
})

test('a headline that names a party the stories name on two sites is about the story; the town they happen in is not', () => {
  const story = (id: number, site: string, text: string) =>
    page(id, `https://www.${site}.example/news/2027/02/library-${id}`, 'Wexcombe library to close', [text])
  const stories = [
    story(
      1,
      'courier',
      'The Carrick Reading Trust, which runs the library for the council, said the building needs £1.2m of repairs and a new branch in Ellerby would open in May.',
    ),
    story(
      2,
      'post',
      'Staff were told on Monday that the Carrick Reading Trust would move the stock to Ellerby by April, a long bus ride away.',
    ),
  ]
  const chief = page(
    3,
    'https://www.courier.example/news/2027/02/trust-chief',
    'Carrick Reading Trust chief to step down',
    [
      'Dawn Pelling, chief executive of the Carrick Reading Trust, is to leave after six years, the trust said on Friday.',
    ],
  )
  const walks = page(4, 'https://www.post.example/news/2027/02/walks', 'Five half-term walks around Ellerby', [
    'From the river path to the old quarry, five walks for families that start and end at a tea room.',
  ])
  const marathon = page(5, 'https://www.post.example/news/2027/02/marathon', 'Carrick Marathon entries open', [
    'Entries for the Carrick Marathon opened on Tuesday, with 3,000 places on a route along the coast.',
  ])
  const about = pagesAboutTopic('Wexcombe library closure', [...stories, chief, walks, marathon], new Set())
  expect([...(about ?? [])].sort()).toEqual([1, 2, 3])
})
