// Research frameworks: structured lenses a brief can apply with frameworkId. The frameworks issue
// fills this out to 55+; these are the eight the spec names.
import type { FrameworkLens } from '#server/providers/types.ts'

export type Framework = FrameworkLens & { category: string; description: string }

export const frameworks: readonly Framework[] = [
  {
    id: 'porter-five-forces',
    name: "Porter's Five Forces",
    category: 'strategy',
    description: 'How attractive an industry is, from the pressure of five competitive forces.',
    queryHints: ['new entrants barriers', 'supplier power', 'buyer power', 'substitutes', 'competitive rivalry'],
    sections: ['Threat of new entrants', 'Supplier power', 'Buyer power', 'Threat of substitutes', 'Rivalry'],
  },
  {
    id: 'rice',
    name: 'RICE prioritization',
    category: 'product',
    description: 'Ranks options by reach, impact, confidence and effort.',
    queryHints: ['adoption numbers', 'measured impact', 'evidence quality', 'implementation cost'],
    sections: ['Reach', 'Impact', 'Confidence', 'Effort'],
  },
  {
    id: 'jobs-to-be-done',
    name: 'Jobs to be Done',
    category: 'customer',
    description: 'The progress customers are trying to make, and what they hire products to do it.',
    queryHints: ['customer needs', 'switching reasons', 'workarounds', 'unmet needs'],
    sections: ['Core job', 'Pains and workarounds', 'Switching triggers', 'Opportunities'],
  },
  {
    id: 'ansoff-matrix',
    name: 'Ansoff Matrix',
    category: 'strategy',
    description: 'Growth paths: market penetration, market development, product development, diversification.',
    queryHints: ['market share growth', 'new markets', 'new products', 'diversification moves'],
    sections: ['Market penetration', 'Market development', 'Product development', 'Diversification'],
  },
  {
    id: 'kano-model',
    name: 'Kano Model',
    category: 'product',
    description: 'Which features are basic expectations, performance drivers or delighters.',
    queryHints: ['must-have features', 'performance features', 'delighters', 'customer satisfaction'],
    sections: ['Basic expectations', 'Performance attributes', 'Delighters', 'Indifferent or reverse'],
  },
  {
    id: 'value-chain',
    name: 'Value Chain',
    category: 'operations',
    description: 'Where value and cost arise across primary and support activities.',
    queryHints: ['supply chain', 'operations cost', 'distribution', 'margins by activity'],
    sections: ['Inbound and operations', 'Outbound and sales', 'Service', 'Support activities', 'Margin drivers'],
  },
  {
    id: 'blue-ocean',
    name: 'Blue Ocean Strategy',
    category: 'strategy',
    description: 'Uncontested market space: what to eliminate, reduce, raise and create.',
    queryHints: ['underserved segments', 'industry assumptions', 'new value curve', 'noncustomers'],
    sections: ['Eliminate', 'Reduce', 'Raise', 'Create'],
  },
  {
    id: 'pestle',
    name: 'PESTLE',
    category: 'market',
    description: 'Political, economic, social, technological, legal and environmental forces.',
    queryHints: [
      'regulation policy',
      'economic trends',
      'social trends',
      'technology change',
      'legal',
      'environmental impact',
    ],
    sections: ['Political', 'Economic', 'Social', 'Technological', 'Legal', 'Environmental'],
  },
]

export function findFramework(id: string): Framework | undefined {
  return frameworks.find((framework) => framework.id === id)
}
