// The words of English text as names are read from them: a capitalised word that is not a month or a
// day of the week, with its possessive "'s" taken off ("Lendrigg's" is "Lendrigg").

/** The months and the days of the week, in lower case. */
export const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const

/** Months and days, which English capitalises though they name no one. */
export const CALENDAR = new RegExp(
  `^(?:${[...MONTH_NAMES, 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sept?', 'oct', 'nov', 'dec', ...WEEKDAYS].join('|')})$`,
  'u',
)

/** A text's words as written (case kept), each without a possessive "'s". */
export function nameWords(text: string): string[] {
  return (text.normalize('NFKC').match(/[\p{L}][\p{L}\p{N}'’-]*/gu) ?? []).map((word) => word.replace(/['’]s$/u, ''))
}
