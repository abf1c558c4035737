// The base forms an inflected English word may have, by its ending alone: "places" may be "plac" or
// "place", "reported" "report" or "reporte". A caller keeps the forms its word list holds.

export function baseForms(word: string): string[] {
  const forms: string[] = []
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`)
  if (word.endsWith('es')) forms.push(word.slice(0, -2))
  if (word.endsWith('s')) forms.push(word.slice(0, -1))
  if (word.endsWith('ed')) forms.push(word.slice(0, -2), word.slice(0, -1))
  if (word.endsWith('ing')) forms.push(word.slice(0, -3), `${word.slice(0, -3)}e`)
  return forms
}
