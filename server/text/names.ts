// The words of English text as names are read from them: a capitalised word that is not a month or a
// day of the week, with its possessive "'s" taken off ("Lendrigg's" is "Lendrigg").

/** Months and days, which English capitalises though they name no one. */
export const CALENDAR =
  /^(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/u

/** A text's words as written (case kept), each without a possessive "'s". */
export function nameWords(text: string): string[] {
  return (text.normalize('NFKC').match(/[\p{L}][\p{L}\p{N}'’-]*/gu) ?? []).map((word) => word.replace(/['’]s$/u, ''))
}
