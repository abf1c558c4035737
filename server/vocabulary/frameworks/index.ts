// Research frameworks: structured lenses a brief can apply with frameworkId. The catalogue is
// constant data, one file per category; GET /api/frameworks and the MCP tool list_frameworks read it.
import { customerFrameworks } from '#server/vocabulary/frameworks/customer.ts'
import { financeFrameworks } from '#server/vocabulary/frameworks/finance.ts'
import { innovationFrameworks } from '#server/vocabulary/frameworks/innovation.ts'
import { marketFrameworks } from '#server/vocabulary/frameworks/market.ts'
import { operationsFrameworks } from '#server/vocabulary/frameworks/operations.ts'
import { policyFrameworks } from '#server/vocabulary/frameworks/policy.ts'
import { productFrameworks } from '#server/vocabulary/frameworks/product.ts'
import { riskFrameworks } from '#server/vocabulary/frameworks/risk.ts'
import { strategyFrameworks } from '#server/vocabulary/frameworks/strategy.ts'
import { technologyFrameworks } from '#server/vocabulary/frameworks/technology.ts'
import type {
  Framework,
  FrameworkFilter,
  FrameworkList,
  FrameworkSummary,
} from '#server/vocabulary/frameworks/types.ts'
import { FRAMEWORK_CATEGORIES } from '#server/vocabulary/frameworks/types.ts'

export type {
  Framework,
  FrameworkCategory,
  FrameworkFilter,
  FrameworkList,
  FrameworkSummary,
} from '#server/vocabulary/frameworks/types.ts'

export const frameworks: readonly Framework[] = [
  ...strategyFrameworks,
  ...productFrameworks,
  ...marketFrameworks,
  ...customerFrameworks,
  ...financeFrameworks,
  ...riskFrameworks,
  ...operationsFrameworks,
  ...technologyFrameworks,
  ...policyFrameworks,
  ...innovationFrameworks,
]

export function findFramework(id: string): Framework | undefined {
  return frameworks.find((framework) => framework.id === id)
}

/**
 * The catalogue, in its own order, narrowed to one category and to frameworks whose id, name,
 * description or when-to-use text holds every word of `q` (case-insensitive). The planner's query
 * hints are left out: they shape searches, and a person choosing a lens does not need them.
 */
export function listFrameworks(filter: FrameworkFilter = {}): FrameworkList {
  const words = (filter.q ?? '').toLowerCase().split(/\s+/).filter(Boolean)
  const matches = frameworks.filter((framework) => {
    if (filter.category && framework.category !== filter.category) return false
    const text = [framework.id, framework.name, framework.description, framework.whenToUse].join(' ').toLowerCase()
    return words.every((word) => text.includes(word))
  })
  return { frameworks: matches.map(frameworkSummary), categories: [...FRAMEWORK_CATEGORIES] }
}

function frameworkSummary(framework: Framework): FrameworkSummary {
  const { id, name, category, description, whenToUse, questions, sections } = framework
  return { id, name, category, description, whenToUse, questions: [...questions], sections: [...sections] }
}
