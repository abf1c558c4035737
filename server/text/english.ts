// English as wink-nlp reads it (its npm-shipped lite model): one reader for the process, loaded on
// first use (about 230 ms and 60 MB), so a process that never reads a claim never pays for it.
// Decision 034 says why this library and what it is used for.

import model from 'wink-eng-lite-web-model'
import winkNLP from 'wink-nlp'

let reader: ReturnType<typeof winkNLP> | undefined

export function english(): ReturnType<typeof winkNLP> {
  reader ??= winkNLP(model, ['pos'])
  return reader
}

export function nlpIts(): ReturnType<typeof winkNLP>['its'] {
  return english().its
}
