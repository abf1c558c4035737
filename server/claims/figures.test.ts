import * as chrono from 'chrono-node'
import fc from 'fast-check'
import { expect, test } from 'vitest'
import {
  compareStatements,
  extractStatements,
  sameDate,
  statesFigure,
  unsupportedFigures,
  writtenDates,
} from '#server/claims/figures.ts'

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000)

/** writtenDates as first written: chrono over every text, then the dates that write out a year. */
function writtenDatesByParsingAll(text: string) {
  return chrono.casual
    .parse(text, new Date(Date.UTC(2000, 0, 1)))
    .filter((parsed) => parsed.start.isCertain('year') && /(?<!\d)(?:1[6-9]|20|21)\d{2}(?!\d)/u.test(parsed.text))
}

/** Texts made of what chrono reads: years in and out of range, digits beside them, months, days, words. */
const dateLikeText = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 1500, max: 2299 }).map(String) },
      { weight: 2, arbitrary: fc.integer({ min: 0, max: 99_999 }).map(String) },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          'january',
          'Feb',
          'march',
          'Sept.',
          'december',
          'monday',
          'today',
          'next week',
          'last year',
          'in',
          'on',
          'by',
          'q3',
          'the 3rd',
          '1st',
          'of',
          'since',
          'until',
          'noon',
          '5pm',
        ),
      },
      { weight: 2, arbitrary: fc.constantFrom(' ', ' ', ', ', '/', '-', '.', ':', 'x', '$', '%', '\n') },
      { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
    ),
    { maxLength: 14 },
  )
  .map((parts) => parts.join(''))

/** The figures a text states, as extractStatements reads them. */
const counted = (text: string) => extractStatements(text).figures

test('writtenDates keeps exactly the dates that parsing every text would keep', () => {
  fc.assert(
    fc.property(dateLikeText, (text) => {
      const summary = (parsed: chrono.ParsedResult[]) =>
        parsed.map((date) => [date.index, date.text, date.start.date()])
      expect(summary(writtenDates(text))).toEqual(summary(writtenDatesByParsingAll(text)))
    }),
    { numRuns: RUNS },
  )
})

test('a text with no year parses no date, and one with a year finds it', () => {
  expect(writtenDates('costs fell 40% by march, next week or last year')).toEqual([])
  expect(writtenDates('output began in march 2024').map((date) => date.text)).toEqual(['march 2024'])
  expect(extractStatements('Output began in March 2024 at 40 percent.').dates).toEqual(['2024-03'])
  // A month with no year is a date of that month in an unknown year: it differs only from another month.
  expect(extractStatements('Output began next March at 40 percent.').dates).toEqual(['XXXX-03'])
})

test('a month with no year is read as a newsroom writes it, and its day is no figure', () => {
  const read = (text: string) => extractStatements(text)
  expect(read('Students will now start on Tuesday, Sept. 8, the day after Labor Day.')).toEqual({
    figures: [],
    dates: ['XXXX-09-08'],
  })
  // After a weekday and its comma, with no word of time before it.
  expect(read('Opening day is now Tuesday, Sept. 8, after the district pushed the start back.')).toEqual({
    figures: [],
    dates: ['XXXX-09-08'],
  })
  expect(read('The vote is on 23 June.').dates).toEqual(['XXXX-06-23'])
  // A day written as an ordinal, with "of" as newsrooms write it.
  expect(read('The £5m scheme opens on the 21st of May.')).toEqual({
    figures: [{ value: 5_000_000, unit: 'gbp' }],
    dates: ['XXXX-05-21'],
  })
  expect(read('The rollout has been moved to September.').dates).toEqual(['XXXX-09'])
  // A month hyphenated as newsrooms write its middle.
  expect(read('The intruders got in on 9 January, not in mid-February.').dates).toEqual(['XXXX-01-09', 'XXXX-02'])
  expect(read('The council may approve it.').dates).toEqual([])
  expect(read('The towers would mar the view.').dates).toEqual([])
  expect(read('The museum opens in Sept.').dates).toEqual(['XXXX-09'])
  expect(read('Parents told a February questionnaire so.').dates).toEqual([])
  expect(read('Parents said so in a February questionnaire.').dates).toEqual(['XXXX-02'])
  expect(sameDate('XXXX-09', '2026-09')).toBe(true)
  expect(sameDate('XXXX-09', '2027')).toBe(true)
  expect(sameDate('XXXX-09', 'XXXX-06')).toBe(false)
  expect(
    compareStatements(read('It now expects a September launch, not from June.'), read('Shops will stock it from June.'))
      .datesDiffer,
  ).toBe(false)
  expect(
    compareStatements(read('The launch has been moved to September.'), read('Shops will stock it from June.'))
      .datesDiffer,
  ).toBe(true)
})

test('a count written in words is a figure, before what it counts or with a scale, and "two thousand" is no year', () => {
  expect(extractStatements('The April march drew some six hundred people.').figures).toEqual([
    { value: 600, unit: 'peopl', bound: 'about' },
  ])
  expect(extractStatements('Two thousand fans signed the letter.')).toEqual({
    figures: [{ value: 2000, unit: 'fan' }],
    dates: [],
  })
  expect(extractStatements('A hundred jobs will go.').figures).toEqual([{ value: 100, unit: 'job' }])
  // A small count before what it counts is a figure, as newsrooms write numbers under ten, and so is
  // one of a group ("two of the councillors"); "one" is not, nor a count of nothing named ("two of
  // them").
  expect(extractStatements('The finished extension will have five stops.').figures).toEqual([
    { value: 5, unit: 'stop' },
  ])
  expect(extractStatements('Two of the councillors voted against; one abstained.').figures).toEqual([
    { value: 2, unit: 'councillor' },
  ])
  expect(extractStatements('Two of them voted against; one of the others abstained.').figures).toEqual([])
  // A number word in a name counts nothing ("League Two", "Formula One"); in a title-case headline it does.
  expect(extractStatements('The League Two club has signed a naming-rights deal.').figures).toEqual([])
  expect(extractStatements('Council Adds Five Stops to Tram Plan').figures).toEqual([{ value: 5, unit: 'stop' }])
  // Numbers in words as newsrooms write them: compounds, teens, scales, sentence openings, halves.
  expect(counted('Three hundred and twenty staff.')).toEqual([{ value: 320, unit: 'staff' }])
  expect(counted('Fourteen batches were recalled.')).toEqual([{ value: 14, unit: 'batch' }])
  expect(counted('The two sites are thirty-eight miles apart.')).toEqual(counted('The two sites are 38 miles apart.'))
  expect(counted('It lent thirty million pounds.')).toEqual(counted('It lent £30m.'))
  expect(counted('Half a million people live there.')).toEqual(counted('500,000 people live there.'))
  expect(counted('Two and a half million pounds.')).toEqual([{ value: 2_500_000, unit: 'gbp' }])
  expect(counted('It must pay fourteen and a half million pounds.')).toEqual(counted('It must pay £14.5m.'))
  expect(counted('A wait of fourteen and a half months.')).toEqual([{ value: 14.5, unit: 'month' }])
  expect(counted('The deal was a rise of five and a half per cent.')).toEqual([{ value: 5.5, unit: '%' }])
  // A bare number that answers a figure before it counts what that one counts.
  expect(
    counted('Councillors capped the crowd at 18,000 people a day, well short of the 25,000 the company had asked for.'),
  ).toEqual([
    { value: 18_000, unit: 'peopl' },
    { value: 25_000, unit: 'peopl' },
  ])
  expect(counted('Ridership rose to 24,500 riders a day, up from 21,000.')).toEqual([
    { value: 24_500, unit: 'rider' },
    { value: 21_000, unit: 'rider', earlier: true },
  ])
  expect(counted('The club redrew it for 22,500 spectators rather than the 24,000 first planned.')).toEqual([
    { value: 22_500, unit: 'spectat' },
    { value: 24_000, unit: 'spectat', earlier: true },
  ])
  // What was done with the answering number says nothing of what it counts; alone, "the injured" are counted.
  expect(counted('It would now cut 165 jobs, up from the 110 announced in May.')).toEqual([
    { value: 165, unit: 'job' },
    { value: 110, unit: 'job', earlier: true },
  ])
  // A length of time between them says over what time; the number answers the quantity that changed.
  expect(counted('It expects to lose 85 officer posts in two years, down from the 120 it planned.')).toEqual([
    { value: 85, unit: 'post' },
    { value: 2, unit: 'year' },
    { value: 120, unit: 'post', earlier: true },
  ])
  // Nouns before the counted noun say what kind ("officer posts", "PCSO roles", "teaching jobs"): the
  // count is of the noun that closes the phrase. An adjective says which of a kind: "310 junior
  // members" count junior members, not members.
  expect(counted('The reduction of 40 PCSO roles is unchanged.')).toEqual([{ value: 40, unit: 'role' }])
  expect(counted('40 police community support officer posts will go.')).toEqual([{ value: 40, unit: 'post' }])
  expect(counted('It still has 19 teaching jobs to fill.')).toEqual(counted('It still has 19 jobs to fill.'))
  expect(counted('The club now has 310 junior members.')).not.toEqual(counted('The club now has 310 members.'))
  expect(counted('The wait is now 6 years, up from 4.')).toEqual([
    { value: 6, unit: 'year' },
    { value: 4, unit: 'year', earlier: true },
  ])
  // What a part counts is the noun after a possessive; an auxiliary after a number counts nothing.
  expect(counted("Seven of Brennock's cheeses were recalled.")).toEqual([{ value: 7, unit: 'chees' }])
  expect(counted("Two of the company's directors resigned.")).toEqual([{ value: 2, unit: 'director' }])
  expect(counted('The firm had 640 staff; 85 have been laid off.')).toEqual([
    { value: 640, unit: 'staff' },
    { value: 85, unit: '' },
  ])
  expect(counted('The 12 injured were taken to hospital.')).toEqual([{ value: 12, unit: 'injur' }])
  expect(counted('A dozen stores.')).toEqual([{ value: 12, unit: 'store' }])
  expect(counted('Two point four million visits.')).toEqual(counted('2.4 million visits.'))
  // A letter written onto a number before a plural noun is its scale; before a thing, a metre.
  expect(counted("The park's 2.4m visits a year.")).toEqual(counted('2.4 million visits.'))
  expect(counted('A 2.4m wall.')).toEqual([{ value: 2.4, unit: 'm' }])
  expect(counted('Residents within an 800m radius were evacuated.')).toEqual([{ value: 800, unit: 'm' }])
  // Not an ordinal, nor a number word in a name, nor "one" alone.
  expect(counted('The twenty-first century.')).toEqual([])
  expect(counted('He wrote Catch Twenty-Two.')).toEqual([])
  expect(counted('It is one of the seven.')).toEqual([])
})

test('a length of time is read in minutes, and a share in words as a proportion', () => {
  expect(counted('The trip can be done in three-quarters of an hour.')).toEqual(counted('The drive takes 45 minutes.'))
  expect(counted('A 90-minute drive.')).toEqual(counted('A drive of an hour and a half.'))
  expect(counted('Within half an hour.')).toEqual([{ value: 30, unit: 'min' }])
  expect(counted('A strike of 48 hours.')).toEqual(counted('A strike of two days.'))
  // A time counted from another event is when, not a length stated.
  expect(counted('It restored them ten weeks after it cleared them off its shelves.')).toEqual([])
  expect(counted('Two years later, it opened.')).toEqual([])
  expect(counted('Half of the staff.')).toEqual([{ value: 0.5, unit: 'share' }])
  expect(counted('Two-thirds of members.')).toEqual([{ value: 0.6667, unit: 'share' }])
  expect(counted('A quarter of the budget.')).toEqual([{ value: 0.25, unit: 'share' }])
  expect(counted('Sales rose in the first half of the year.')).toEqual([])
  // A share of a figure relates another quantity to it: the figure is what is stated.
  expect(counted("The loan covers a quarter of the project's £142m cost.")).toEqual([{ value: 142e6, unit: 'gbp' }])
  expect(counted("That is close to half the creamery's 310-strong workforce.")).toEqual(
    counted('The creamery has a workforce of 310.').map((figure) => ({ ...figure, unit: 'workforc' })),
  )
  expect(counted('Some 300-odd jobs.')).toEqual([{ value: 300, unit: 'job', bound: 'about' }])
  // A comparative compares the things with those they replace: it counts the noun after it.
  expect(counted('It will use 72 larger turbines rather than the smaller machines.')).toEqual([
    { value: 72, unit: 'turbin' },
  ])
  expect(counted('It placed 85 of its workers on lay-off.')).toEqual([{ value: 85, unit: 'worker' }])
  expect(counted('Shops took seven of its cheeses off sale.')).toEqual(counted('Seven cheeses were taken off sale.'))
  expect(counted('The half-million-euro fund.')).toEqual(counted('A fund of €500,000.'))
  // A time of day, however written.
  expect(counted('No flights between 11pm and 6am.')).toEqual(counted('No flights between 23:00 and 06:00.'))
  expect(counted('At 9.30am.')).toEqual([{ value: 570, unit: 'clock' }])
})

test('a price and its rate per thing are one price, so another value of it differs', () => {
  const read = (text: string) => extractStatements(text)
  expect(compareStatements(read('Visitors will pay five pounds a day.'), read('Drivers will pay £7 per car.'))).toEqual(
    {
      comparable: true,
      figuresDiffer: true,
      datesDiffer: false,
    },
  )
  expect(
    compareStatements(read('Drivers will pay £7 per car.'), read('Visitors will pay £7 a day.')).figuresDiffer,
  ).toBe(false)
})

test('two days of one month are two dates', () => {
  const dates = (text: string) => extractStatements(text).dates
  expect(dates('It was heard on 21 and 22 October 2026.')).toEqual(['2026-10-21', '2026-10-22'])
  expect(dates('Hearings on Oct. 21-22, 2026.')).toEqual(['2026-10-21', '2026-10-22'])
  // A day and a month are a date wherever they stand.
  expect(dates('The earliest charging could now begin was 1 September.')).toEqual(['XXXX-09-01'])
  // "May" after two numbers is a verb when no year or stop follows.
  expect(dates('Those aged 18 to 24 may apply.')).toEqual([])
})

test('a quarter or a half is read however a newsroom names it', () => {
  const dates = (text: string) => extractStatements(text).dates
  expect(dates('in the fourth quarter of 2027')).toEqual(['2027-Q4'])
  expect(dates('in the final quarter of 2027')).toEqual(['2027-Q4'])
  expect(dates('the last quarter of 2025')).toEqual(['2025-Q4'])
  expect(dates('in the latter half of 2029')).toEqual(['2029-H2'])
  expect(dates('the back half of 2026')).toEqual(['2026-H2'])
  expect(dates('the first half of 2027')).toEqual(['2027-H1'])
  expect(dates('no sooner than the April-to-June quarter of 2028')).toEqual(['2028-Q2'])
  expect(dates('in the July-September quarter of 2027')).toEqual(['2027-Q3'])
})

test('a season of a year is a date as near as a quarter, told from another season and agreeing with its year', () => {
  const dates = (text: string) => extractStatements(text).dates
  expect(dates('before the spring of 2029')).toEqual(['2029-S1'])
  expect(dates('Carrick is sticking to spring 2029')).toEqual(['2029-S1'])
  expect(dates('by the autumn of 2028')).toEqual(['2028-S3'])
  expect(sameDate('2029-S1', '2029-S1')).toBe(true)
  expect(sameDate('2029-S1', '2029-S3')).toBe(false)
  expect(sameDate('2029-S1', '2029')).toBe(true)
  expect(sameDate('2029-S1', '2029-Q2')).toBe(true)
  expect(sameDate('2029-S1', '2030-04')).toBe(false)
  // "Fall" is left to the verb.
  expect(dates('Prices could fall 2029 onwards')).toEqual(['2029'])
})

test('a measure is read in one unit of its kind, at any metric scale and as a rate in time', () => {
  const figures = (text: string) => extractStatements(text).figures
  const water = [{ value: 3_100_000_000, unit: 'l' }]
  expect(figures('The plant would use 3.1 billion litres of water a year.')).toEqual(water)
  expect(figures('Its application puts the annual draw at 3,100 megalitres.')).toEqual(water)
  expect(figures('The planned draw of 3.1 gigalitres a year was accepted.')).toEqual(water)
  expect(figures('It would take roughly 3.1 million cubic metres of water a year.')).toEqual([
    { ...water[0], bound: 'about' },
  ])
  // "Ml" is megalitres, "ml" millilitres; a rate in time is the quantity it measures.
  expect(figures('Its 40 Ml/d of output would cover a fifth of demand.')).toEqual([
    { value: 0.2, unit: 'share' },
    ...figures('The plant would have supplied 40 million litres of fresh water every day.'),
  ])
  expect(figures('A 5 ml dose.')).toEqual([{ value: 0.005, unit: 'l' }])
  expect(figures('A 40ML dam.')).toEqual([{ value: 40_000_000, unit: 'l' }])
  // After a year, "ML" is machine learning's.
  expect(extractStatements('In 2024 ML spending rose.')).toEqual({ figures: [], dates: ['2024'] })
  expect(figures('That is a third of the 32kt per annum it now plans.')).toEqual([{ value: 32e9, unit: 'g' }])
  expect(figures('It would produce 40,000 tonnes a year.')).toEqual(figures('It would produce 40kt.'))
  // Tonnes per annum as industry writes them: "240ktpa", "5 mtpa", "3 Mt".
  expect(figures('A throughput of 240ktpa.')).toEqual(figures('It would burn 240,000 tonnes a year.'))
  expect(figures('The terminal will export 5 mtpa of gas.')).toEqual(figures('It will ship 5 million tonnes a year.'))
  expect(figures('It emits 3 Mt of carbon dioxide.')).toEqual(figures('It emits 3 million tonnes of it.'))
  expect(figures('A 1.2 GWh battery')).toEqual(figures('a 1,200 megawatt-hour battery'))
  // "Rather than" and "instead of" compare two figures; neither word is what they count.
  expect(figures('at 3.4 million rather than 1.2 million')).toEqual([
    { value: 3.4e6, unit: '' },
    { value: 1.2e6, unit: '', earlier: true },
  ])
  // Loudness as a licence writes it and as a newsroom does.
  expect(figures('Music must not exceed 65 dB LAeq at the nearest homes.')).toEqual(figures('a 65-decibel ceiling'))
  expect(figures('up to 70dB')).toEqual([{ value: 70, unit: 'db', bound: 'under' }])
  // A rate per person, however it names the person; a price per unit keeps its unit.
  expect(figures('Use fell to 128 litres a head each day.')).toEqual([{ value: 128, unit: 'l/person' }])
  expect(figures('At 142 litres per person per day.')).toEqual([{ value: 142, unit: 'l/person' }])
  expect(figures('Customers now use 128 litres each a day.')).toEqual([{ value: 128, unit: 'l/person' }])
  expect(figures('It supplies 40 million litres each day.')).toEqual([{ value: 40_000_000, unit: 'l' }])
  expect(figures('Cells cost $80/kWh.')).toEqual([{ value: 80, unit: 'usd/kwh' }])
  // Different quantities stay different.
  expect(
    compareStatements(extractStatements('3,100 megalitres'), extractStatements('3.2 billion litres')).figuresDiffer,
  ).toBe(true)
})

test('a unit joined by a hyphen, a proportion in words and a season are read as written', () => {
  const read = (text: string) => extractStatements(text)
  expect(read("Over the mine's 22-year life.").figures).toEqual(read('It has 22 years of operation.').figures)
  expect(read('A 400-seat hall.').figures).toEqual([{ value: 400, unit: 'seat' }])
  expect(read('Nearly three in five parents, 58 percent, backed it.').figures).toEqual([
    { value: 0.6, unit: 'share', bound: 'under' },
    { value: 58, unit: '%' },
  ])
  expect(read('One out of four homes.').figures).toEqual([{ value: 0.25, unit: 'share' }])
  expect(read('It affected six in every 100 participants.').figures).toEqual([{ value: 0.06, unit: 'share' }])
  // A season is dated by the year it starts in; two years apart are no season.
  expect(read('They will kick off the 2028-29 season there.')).toEqual({ figures: [], dates: ['2028'] })
  expect(read('The 2024-25 budget.').dates).toEqual(['2024'])
  expect(read('A 3-2 vote.').dates).toEqual([])
})

test('a proportion in words restates the percentage it rounds, and no other', () => {
  const share = { value: 0.6, unit: 'share' }
  expect(statesFigure(share, { value: 58, unit: '%' })).toBe(true)
  expect(statesFigure({ value: 58, unit: '%' }, share)).toBe(true)
  expect(statesFigure(share, { value: 44, unit: '%' })).toBe(false)
  expect(statesFigure(share, { value: 60, unit: 'peopl' })).toBe(false)
  expect(unsupportedFigures(extractStatements('three in five parents'), extractStatements('58% of parents'))).toEqual(
    [],
  )
})

test('a range of dates states both its ends, and a date that moved gives the old and the new', () => {
  expect(extractStatements('The finish date has moved from March 2028 to December 2028.').dates).toEqual([
    '2028-03',
    '2028-12',
  ])
  expect(extractStatements('The road will close from 1 to 14 March 2027.').dates).toEqual(['2027-03-01', '2027-03-14'])
})

test('a rough or bounded figure stands for the range its words and its last digit allow', () => {
  const compare = (a: string, b: string) => compareStatements(extractStatements(a), extractStatements(b))
  // "Just over £21m" is £21m up to £22m; "nearly 7,000" above 6,000 up to 7,000; "about 140" 130 to 150.
  expect(compare('Last year it booked revenue of just over £21m.', 'Revenue rose to £21.4m.').figuresDiffer).toBe(false)
  expect(compare('Nearly 7,000 premises can order it.', 'It reaches 6,940 premises.').figuresDiffer).toBe(false)
  expect(compare('About 140 people work there.', 'It has 146 people on site.').figuresDiffer).toBe(false)
  expect(compare('Nearly four in five were against it.', 'More than three-quarters of them were against it.')).toEqual({
    figuresDiffer: false,
    datesDiffer: false,
    comparable: true,
  })
  // Outside the range, or written plainly, another value differs.
  expect(compare('Just over £21m.', 'Revenue rose to £23m.').figuresDiffer).toBe(true)
  expect(compare('About 140 people work there.', 'Around 85 people work there.').figuresDiffer).toBe(true)
  expect(compare('It employs 230 people.', 'It employs 234 people.').figuresDiffer).toBe(true)
  expect(compare('More than 3,000 people signed it.', 'It was signed by 11,400 people.').figuresDiffer).toBe(true)
})

test('a measure joined to its count by a hyphen is read in words too, and a noun before "of" can be what is counted', () => {
  expect(extractStatements('It means no daily eleven-mile bus ride.').figures).toEqual(
    extractStatements('The school is 11 miles away.').figures,
  )
  // A length of time or a count so joined names a kind: "a four-day week" states no quantity.
  expect(extractStatements('The board approved the four-day calendar.').figures).toEqual([])
  expect(extractStatements("Ashcombe's workforce of 58 faces an anxious wait.").figures).toEqual([
    { value: 58, unit: 'workforc' },
  ])
  expect(extractStatements('It has a fleet of 12 boats.').figures).toEqual([{ value: 12, unit: 'boat' }])
})

test('a word that says which of a kind is counted is read with the noun after it: "new homes" and "new jobs" are two kinds', () => {
  const units = (text: string) => extractStatements(text).figures.map((figure) => figure.unit)
  expect(units('The developer will build 290 new homes.')).not.toEqual(units('The developer will create 350 new jobs.'))
  expect(units('It will hire 12 extra rangers.')).toEqual(units('It will now hire 15 extra rangers.'))
  // What a figure beside it counts, it counts too.
  expect(units('Inspectors found 3 new cases, up from 2.')).toEqual(['new case', 'new case'])
})

test('thousands in words with what follows them are one number, and "to X, from Y" says what the quantity was', () => {
  expect(extractStatements('More than two thousand one hundred people took part.').figures).toEqual([
    { value: 2100, unit: 'peopl', bound: 'over' },
  ])
  expect(extractStatements('The site will have three thousand and forty homes.').figures).toEqual([
    { value: 3040, unit: 'home' },
  ])
  expect(extractStatements('Revenue doubled to £21.4m, from £9.8m.').figures).toEqual([
    { value: 21_400_000, unit: 'gbp' },
    { value: 9_800_000, unit: 'gbp', earlier: true },
  ])
})

test('"each way" and "each direction" say in which direction, not per person', () => {
  expect(extractStatements('The island has six sailings each way every day.').figures).toEqual([
    { value: 6, unit: 'sail' },
  ])
  expect(extractStatements('Households use 128 litres each a day.').figures).toEqual([{ value: 128, unit: 'l/person' }])
})

test('an ordinal is a rank, not a quantity, and answers no figure before it', () => {
  // "The 400th home" follows a sum: it is neither £400 nor a count of homes.
  expect(
    extractStatements('The agreement secures the £19.5m link road before the 400th home is occupied.').figures,
  ).toEqual([{ value: 19_500_000, unit: 'gbp' }])
  expect(extractStatements("The hall marks the town's 800th year, and its 3rd rebuild.").figures).toEqual([])
  // A count beside it is still read.
  expect(extractStatements('For its 50th birthday the station has 34 volunteers.').figures).toEqual([
    { value: 34, unit: 'volunt' },
  ])
})

test('when a thing was said, or the month a count runs since, is no date of the thing told', () => {
  const dates = (text: string) => extractStatements(text).dates
  expect(
    dates('The harbour board informed the council on 7 October that it will no longer dredge the channel.'),
  ).toEqual([])
  expect(dates('The mayor has backed the levy since the board announced it in January.')).toEqual([])
  expect(dates('The harbour has received 1,240 complaints about dredging noise since March.')).toEqual([])
  // The thing's own dates stay: the day a closure began, a thing revealed, a date told in what was said.
  expect(dates('The ferry slip has been shut to traffic since 28 September.')).toEqual(['XXXX-09-28'])
  expect(dates('The board first revealed the leak on 3 March.')).toEqual(['XXXX-03-03'])
  expect(dates('The council said in April 2027 that the channel would be dredged in June.')).toEqual(['XXXX-06'])
})
