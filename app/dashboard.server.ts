// Server helpers for the dashboard routes: the new-brief form's parsing and messages, the budget
// hints and the framework picker's catalogue.
import { cadenceFieldMessage, readCadenceForm } from '#app/cadence-form.server.ts'
import type { BriefFormValues, BudgetDefaults, RunLimitRefusal } from '#app/components/brief-form.tsx'
import type { FrameworkOption } from '#app/components/framework-picker.tsx'
import { type Config, modelPrices } from '#server/config.ts'
import type { LimitDecision } from '#server/limits/limiter.ts'
import { readBudgetNumber } from '#server/vocabulary/budget.ts'
import { listFrameworks } from '#server/vocabulary/frameworks/index.ts'

/** The form as typed (to show again) and as the brief BriefSchema parses. */
export function readBriefForm(form: FormData): { values: BriefFormValues; input: Record<string, unknown> } {
  const text = (name: string) => {
    const value = form.get(name)
    return typeof value === 'string' ? value : ''
  }
  const cadence = readCadenceForm(form)
  const values: BriefFormValues = {
    topic: text('topic'),
    objective: text('objective'),
    focus: text('focus'),
    depth: text('depth'),
    timeframe: text('timeframe'),
    reportStyle: text('reportStyle'),
    recurring: form.get('recurring') !== null,
    frameworkId: text('frameworkId'),
    maxTokens: text('maxTokens'),
    maxCostDollars: text('maxCostDollars'),
    ...cadence.values,
  }
  // An empty optional field means "not given", so the schema's default (or nothing) applies.
  const optional = (value: string) => (value.trim() === '' ? undefined : value)
  const budget = (value: string) => (value.trim() === '' ? undefined : readBudgetNumber(value))
  return {
    values,
    input: {
      topic: values.topic,
      objective: optional(values.objective),
      focus: optional(values.focus),
      depth: optional(values.depth),
      timeframe: optional(values.timeframe),
      reportStyle: optional(values.reportStyle),
      recurring: values.recurring,
      frameworkId: optional(values.frameworkId),
      maxTokens: budget(values.maxTokens),
      maxCostDollars: budget(values.maxCostDollars),
      // How it repeats counts only for a recurring brief: unticked, the schedule fields are ignored.
      ...(values.recurring ? cadence.input : {}),
      source: 'dashboard',
    },
  }
}

/**
 * One message per field, written for the form: the schema's own messages speak to API clients
 * ("list them with GET /api/frameworks").
 */
export function briefFormErrors(
  issues: ReadonlyArray<{ path: PropertyKey[]; code: string; message: string }>,
  scheduleMinSeconds: number,
): Record<string, string> {
  const errors: Record<string, string> = {}
  for (const issue of issues) {
    const field = String(issue.path[0] ?? 'form')
    errors[field] ??= cadenceFieldMessage(field, scheduleMinSeconds) ?? formMessage(field, issue)
  }
  return errors
}

function formMessage(field: string, issue: { code: string; message: string }): string {
  switch (field) {
    case 'topic':
      return issue.message.includes('at most') ? 'Keep the topic to 500 characters or fewer.' : 'Enter a topic.'
    case 'objective':
      return 'Keep the objective to 2,000 characters or fewer.'
    case 'focus':
      return 'Keep the focus areas to 1,000 characters or fewer.'
    case 'frameworkId':
      return issue.code === 'custom' && issue.message.includes('reportStyle')
        ? 'The “Framework sections” report style needs a framework: choose one here, or pick another style.'
        : 'Choose a framework from the list.'
    case 'maxTokens':
      return 'Enter a whole number of tokens from 1,000 to 10,000,000, or leave it empty.'
    case 'maxCostDollars':
      return 'Enter dollars and cents from 0.01 to 1,000, such as 0.50, or leave it empty.'
    case 'depth':
    case 'timeframe':
    case 'reportStyle':
      return 'Choose one of the options.'
    default:
      return 'Check this field and try again.'
  }
}

/** What a brief without a budget gets on this server, for the form's hints. */
export function budgetDefaults(config: Config): BudgetDefaults {
  return { maxTokens: config.RUN_MAX_TOKENS ?? null, modelPriced: modelPrices(config) !== undefined }
}

export function runLimitRefusal(decision: LimitDecision, message: string): RunLimitRefusal {
  const wait = Math.max(1, decision.retryAfterSeconds)
  return {
    message,
    resetsAt: new Date(decision.checkedAt.getTime() + wait * 1000).toISOString(),
  }
}

/** The catalogue as the picker needs it: no questions or sections, which only the API lists. */
export function frameworkOptions(): { frameworks: FrameworkOption[]; categories: string[] } {
  const list = listFrameworks()
  return {
    frameworks: list.frameworks.map(({ id, name, category, description }) => ({ id, name, category, description })),
    categories: list.categories,
  }
}
