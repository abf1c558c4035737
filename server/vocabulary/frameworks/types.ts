// What a research framework is, as data: the lens the planner and the report use (FrameworkLens) plus
// what a person needs to choose one. The schemas check the catalogue in tests and describe it in the API.
import { z } from 'zod'

export const FRAMEWORK_CATEGORIES = [
  'strategy',
  'product',
  'market',
  'customer',
  'finance',
  'risk',
  'operations',
  'technology',
  'policy',
  'innovation',
] as const

export type FrameworkCategory = (typeof FRAMEWORK_CATEGORIES)[number]

const KEBAB_CASE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/
// A full stop, question or exclamation mark followed by a capital starts a second sentence.
const SECOND_SENTENCE = /[.!?]\s+[A-Z]/

function distinct(items: string[]): boolean {
  return new Set(items.map((item) => item.trim().toLowerCase())).size === items.length
}

function sentence(max: number, ending: '.' | '?' = '.') {
  return z
    .string()
    .min(10)
    .max(max)
    .refine((text) => text.trim() === text && text.endsWith(ending), {
      error: `must be trimmed and end with "${ending}"`,
    })
}

// Hints and section titles are searched for and matched by the extractive synthesizer, so they are
// short phrases without punctuation of their own.
const phrase = z
  .string()
  .min(2)
  .max(60)
  .refine((text) => text.trim() === text && !/[.?!:;]$/.test(text), { error: 'must be a trimmed phrase' })

const FrameworkFields = {
  id: z.string().regex(KEBAB_CASE).max(60).describe('What a brief names in `frameworkId`.'),
  name: z.string().min(2).max(80),
  category: z.enum(FRAMEWORK_CATEGORIES),
  description: sentence(200)
    .refine((text) => !SECOND_SENTENCE.test(text), { error: 'must be one sentence' })
    .describe('What the framework looks at, in one sentence.'),
  whenToUse: sentence(320).describe('The questions and situations it suits.'),
  questions: z
    .array(sentence(200, '?'))
    .min(3)
    .max(6)
    .refine(distinct, { error: 'questions must be distinct' })
    .describe('What the lens asks of the sources.'),
  queryHints: z
    .array(phrase)
    .min(3)
    .max(6)
    .refine(distinct, { error: 'query hints must be distinct' })
    .describe('Phrases the planner adds to the topic to shape its search queries.'),
  sections: z
    .array(phrase)
    .min(3)
    .max(7)
    .refine(distinct, { error: 'section titles must be distinct' })
    .describe('The report sections, in order, when reportStyle is "framework".'),
}

export const FrameworkSchema = z.strictObject(FrameworkFields)

export type Framework = z.infer<typeof FrameworkSchema>

/** A framework as the catalogue lists it: everything but the planner's query hints. */
export const FrameworkSummarySchema = FrameworkSchema.omit({ queryHints: true })

export type FrameworkSummary = z.infer<typeof FrameworkSummarySchema>

export const FrameworkFilterSchema = z.strictObject({
  category: z.enum(FRAMEWORK_CATEGORIES).optional().describe('Only frameworks of this category.'),
  q: z
    .string()
    .trim()
    .max(200)
    .optional()
    .describe('Words to look for in the id, name, description and when-to-use text; case-insensitive, all must match.'),
})

export type FrameworkFilter = z.infer<typeof FrameworkFilterSchema>

export const FrameworkListSchema = z.object({
  frameworks: z.array(FrameworkSummarySchema),
  categories: z.array(z.enum(FRAMEWORK_CATEGORIES)).describe('Every category, whatever the filter.'),
})

export type FrameworkList = z.infer<typeof FrameworkListSchema>
