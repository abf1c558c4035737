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

test("a page that names the topic's place, headlined with whom the stories about the topic name, is about it", () => {
  const topic = 'Dunlow broadband rollout'
  // The run's pages about the topic, on two sites, name the company building it.
  const stories = [
    source(
      1,
      'https://www.dunlowherald.example/news/2027/02/broadband-rollout-behind',
      'Broadband rollout falls behind in Dunlow',
      'The Dunlow broadband rollout is six months late. Corvell Networks, which holds the contract, blames the weather. ' +
        'A spokesperson for Corvell said crews would return in March.',
    ),
    source(
      2,
      'https://www.valleyfm.example/news/2027/02/villages-wait-for-broadband',
      'Villages wait for broadband as Dunlow rollout slips',
      'Residents say the Dunlow broadband rollout has stalled. Corvell Networks says 2,100 homes are connected.',
    ),
  ]
  // The regulator's notice says "full fibre" and "the network build", never "broadband".
  const fine = source(
    3,
    'https://www.regulator.example/enforcement/2027/03/corvell-networks-penalty',
    'Regulator fines Corvell Networks £600,000 over Dunlow works',
    'The regulator has fined Corvell Networks Ltd £600,000 over its network build in the Dunlow district. ' +
      'Corvell failed to warn residents before digging began.',
  )
  // A page that only mentions the place names no one the stories name.
  const rescue = source(
    4,
    'https://www.dunlowherald.example/news/2027/03/mountain-rescue-busiest-year',
    'Busiest year yet for Dunlow Mountain Rescue',
    'Volunteers were called out 112 times last year, the team said.',
  )
  // Nor does a page that names the company but not the topic's place.
  const elsewhere = source(
    5,
    'https://www.trade.example/telecoms/2027/03/corvell-wins-contract',
    'Corvell Networks wins a contract in Kent',
    'The company will connect 9,000 homes near Ashford.',
  )
  expect([...sourcesOnTopic(topic, [...stories, fine, rescue, elsewhere])].sort()).toEqual([1, 2, 3])
  // Alone, the notice has no stories beside it to learn the company's name from.
  expect([...sourcesOnTopic(topic, [fine])]).toEqual([])
  // Named by one site only, a name may be that site's own: it says nothing of the topic.
  expect([...sourcesOnTopic(topic, [stories[0] as (typeof stories)[number], fine])]).toEqual([1])
})
