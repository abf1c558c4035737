import { expect, test } from 'vitest'
import { sourcesOnTopic } from '#server/research/topicality.ts'

const source = (id: number, url: string, title: string, text: string) => ({ id, url, title, text })

test('a page headlined with what the topic is about is about it in its own words, one word short', () => {
  const topic = 'Glenmarra National Park entry fee'
  const traders = source(
    1,
    'https://www.nbr.example/tourism/2027/03/traders-breathe-easier-after-park-board-trims-charge',
    'Traders breathe easier after park board trims its charge',
    'Businesses in Glenmarra have welcomed the decision to charge visitors five pounds a day to park, rather than seven.',
  )
  // Two of the three words needed, but no headline about the topic: a story about something else.
  const hotel = source(
    2,
    'https://www.nbr.example/property/2027/03/lochside-hotel-sold',
    'Lochside hotel sold to Edinburgh group',
    'The hotel, on the edge of Glenmarra, says its guests will not be put off by parking charges in the park.',
  )
  // A column headlined with the topic's word is still a column.
  const column = source(
    3,
    'https://www.nbr.example/opinion/2027/03/park-charges',
    'Column: the park should not charge',
    'Glenmarra has always been free to walk in, and the park should stay that way.',
  )
  expect([...sourcesOnTopic(topic, [traders, hotel, column])]).toEqual([1])
  // Three of the topic's words are enough anywhere, as before.
  const full = source(4, 'https://x.example/a', 'Glenmarra park fee approved', 'The national park fee was approved.')
  expect([...sourcesOnTopic(topic, [full])]).toEqual([4])
})
