// The quality benchmark's figures: per seed, their mean and worst, as table rows with the issue's
// targets (model path), and the details the JSON keeps.
import type { Row } from '#bench/measure.ts'
import {
  addScores,
  CHANGE_CLASSES,
  type ChangeClass,
  type Mistake,
  precision,
  type RunScore,
  ratio,
  recall,
} from '#bench/quality/score.ts'

export type Path = 'model' | 'extractive'
export type Integrity = { claims: number; shown: number; droppedUnsupported: number; recited: number }

export type ScoredRun = {
  path: Path
  seed: number
  topic: string
  epoch: number
  runId: string
  /** Pages the run read (served and not in its ledger). */
  read: number
  integrity: Integrity
  confirmedCount: number
  score: RunScore
}

export type SeedFigures = {
  seed: number
  precision: Record<ChangeClass, number>
  recall: Record<ChangeClass, number>
  /** Recall among fact versions that reached classification (shown or confirmed): the classifier alone. */
  classifiedRecall: Record<ChangeClass, number>
  rewordedAsNew: number
  unsupportedShown: number
  shown: number
  noFact: number
  integrity: Integrity
}

/** Class figures come from the runs with memory (epochs 2 and 3); quote integrity from every run. */
export function seedFigures(seed: number, runs: ScoredRun[]): SeedFigures {
  const delta = addScores(runs.filter((run) => run.epoch > 1).map((run) => run.score))
  const all = addScores(runs.map((run) => run.score))
  const byClass = (figure: (kind: ChangeClass) => number) =>
    Object.fromEntries(CHANGE_CLASSES.map((kind) => [kind, figure(kind)])) as Record<ChangeClass, number>
  return {
    seed,
    precision: byClass((kind) => precision(delta.classes[kind])),
    recall: byClass((kind) => recall(delta.classes[kind])),
    classifiedRecall: byClass((kind) => ratio(delta.classes[kind].found, delta.classes[kind].classified)),
    rewordedAsNew: ratio(delta.rewordedAsNew, delta.confirmedTruth),
    unsupportedShown: all.unsupportedShown,
    shown: all.shown,
    noFact: all.noFact,
    integrity: runs.reduce(
      (total, run) => ({
        claims: total.claims + run.integrity.claims,
        shown: total.shown + run.integrity.shown,
        droppedUnsupported: total.droppedUnsupported + run.integrity.droppedUnsupported,
        recited: total.recited + run.integrity.recited,
      }),
      { claims: 0, shown: 0, droppedUnsupported: 0, recited: 0 },
    ),
  }
}

type Target = { at: 'min' | 'max'; bound: number; label: string }

export function qualityRows(path: Path, seeds: SeedFigures[], sloppy?: string): Row[] {
  const scenario = `quality (${path})`
  const onModel = path === 'model'
  const mean = (values: number[]) => {
    const known = values.filter((value) => !Number.isNaN(value))
    return known.length === 0 ? Number.NaN : known.reduce((sum, value) => sum + value, 0) / known.length
  }
  const worst = (values: number[], at: 'min' | 'max') => {
    const known = values.filter((value) => !Number.isNaN(value))
    return known.length === 0 ? Number.NaN : at === 'min' ? Math.min(...known) : Math.max(...known)
  }
  const share = (metric: string, values: number[], target?: Target): Row => {
    const average = mean(values)
    const row: Row = {
      scenario,
      metric: `${metric} (mean of ${seeds.length} seeds; worst)`,
      value: `${pct(average)}; ${pct(worst(values, target?.at ?? 'min'))}`,
    }
    if (!target || !onModel) return row
    const met = target.at === 'min' ? average >= target.bound : average <= target.bound
    return { ...row, target: target.label, met }
  }
  const triple = (figure: (seed: SeedFigures) => Record<ChangeClass, number>) =>
    CHANGE_CLASSES.map((kind) => pct(mean(seeds.map((seed) => figure(seed)[kind])))).join(' / ')
  const unsupported = seeds.reduce((total, seed) => total + seed.unsupportedShown, 0)
  const shown = seeds.reduce((total, seed) => total + seed.shown, 0)
  const integrity = seeds.reduce(
    (total, seed) => ({
      claims: total.claims + seed.integrity.claims,
      dropped: total.dropped + seed.integrity.droppedUnsupported,
      recited: total.recited + seed.integrity.recited,
    }),
    { claims: 0, dropped: 0, recited: 0 },
  )
  const rows: Row[] = [
    {
      scenario,
      metric: 'shown claims whose quote is not on a page they cite (every run)',
      value: `${unsupported} of ${shown}`,
      target: '0',
      met: unsupported === 0,
    },
    share(
      'changed figures and dates reported as updated',
      seeds.map((seed) => seed.recall.updated),
      { at: 'min', bound: 0.95, label: '>= 95%' },
    ),
    share(
      'reworded old facts reported as new',
      seeds.map((seed) => seed.rewordedAsNew),
      { at: 'max', bound: 0.05, label: '<= 5%' },
    ),
    share(
      'recall of truly new facts',
      seeds.map((seed) => seed.recall.new),
      { at: 'min', bound: 0.9, label: '>= 90%' },
    ),
    share(
      'recall of contradictions',
      seeds.map((seed) => seed.recall.contradicted),
    ),
    { scenario, metric: 'precision new / updated / contradicted (mean)', value: triple((seed) => seed.precision) },
    { scenario, metric: 'recall new / updated / contradicted (mean)', value: triple((seed) => seed.recall) },
    {
      scenario,
      metric: 'recall among facts that reached classification: new / updated / contradicted',
      value: triple((seed) => seed.classifiedRecall),
    },
    {
      scenario,
      metric: 'claims made; dropped as unsupported; re-cited to the page holding the quote',
      value: `${integrity.claims}; ${integrity.dropped} (${pct(ratio(integrity.dropped, integrity.claims))}); ${integrity.recited}`,
    },
    {
      scenario,
      metric: 'shown claims that state no fact (boilerplate)',
      value: String(seeds.reduce((total, seed) => total + seed.noFact, 0)),
    },
    ...seeds.map((seed) => ({
      scenario,
      metric: `seed ${seed.seed}: P new/upd/con; R new/upd/con; reworded as new; unsupported`,
      value: `${CHANGE_CLASSES.map((kind) => pct(seed.precision[kind], 0)).join('/')}; ${CHANGE_CLASSES.map((kind) => pct(seed.recall[kind], 0)).join('/')}; ${pct(seed.rewordedAsNew, 0)}; ${seed.unsupportedShown}`,
    })),
  ]
  if (sloppy) rows.push({ scenario, metric: 'the sloppy model did', value: sloppy })
  return rows
}

/** The mistakes worth reading first: wrong classes before facts that were never shown. */
export function worstMistakes(
  runs: ScoredRun[],
  limit: number,
): Array<Mistake & { seed: number; topic: string; epoch: number }> {
  const all = runs
    .filter((run) => run.epoch > 1)
    .flatMap((run) =>
      run.score.mistakes.map((mistake) => ({ seed: run.seed, topic: run.topic, epoch: run.epoch, ...mistake })),
    )
  const rank = (mistake: Mistake) => (mistake.got === 'not shown' ? 2 : mistake.got === 'confirmed' ? 1 : 0)
  return all.sort((a, b) => rank(a) - rank(b)).slice(0, limit)
}

export function pct(value: number, digits = 1): string {
  return Number.isNaN(value) ? 'n/a' : `${(value * 100).toFixed(digits)}%`
}
