// Innovation lenses: how new things emerge, spread and displace the old, and how to develop them.
import type { Framework } from '#server/vocabulary/frameworks/types.ts'

export const innovationFrameworks: Framework[] = [
  {
    id: 'three-horizons',
    name: 'Three Horizons',
    category: 'innovation',
    description: 'Balances the core business today, emerging businesses next, and options on the future.',
    whenToUse:
      'When an organization has to fund today and tomorrow at once, and wants to see whether its pipeline is balanced.',
    questions: [
      'How healthy is the core business, and how long will it last?',
      'Which emerging businesses are scaling into the next source of growth?',
      'Which experiments and options could matter in the long run?',
      'How are resources split across the three horizons?',
    ],
    queryHints: ['core business performance', 'new growth businesses', 'long-term bets', 'innovation portfolio'],
    sections: [
      'Horizon 1: core business',
      'Horizon 2: emerging businesses',
      'Horizon 3: future options',
      'Resource balance',
    ],
  },
  {
    id: 'disruptive-innovation',
    name: 'Disruptive Innovation',
    category: 'innovation',
    description:
      'How a simpler, cheaper entrant starts at the low end or a new market and moves up to displace incumbents.',
    whenToUse:
      'When a new entrant looks inferior but is gaining ground, or when judging whether an innovation is truly disruptive.',
    questions: [
      'What are incumbents improving, and for which customers?',
      'Which customers are given more than they need?',
      'Where did the entrant gain its first foothold?',
      'How fast is the entrant improving toward mainstream needs?',
      'How are incumbents responding?',
    ],
    queryHints: ['low-cost entrant', 'incumbent response', 'cheaper alternative', 'market disruption'],
    sections: [
      'Incumbent trajectory',
      'Overserved customers',
      'Low-end or new-market foothold',
      'Improvement path of the entrant',
      'Incumbent response',
    ],
  },
  {
    id: 'crossing-the-chasm',
    name: 'Crossing the Chasm',
    category: 'innovation',
    description: 'The gap between early adopters and the pragmatic mainstream, and how a product crosses it.',
    whenToUse: 'For a technology product with enthusiastic early users that is struggling to win mainstream buyers.',
    questions: [
      'Who adopted first, and why?',
      'What do pragmatic mainstream buyers need before they commit?',
      'Which narrow segment could serve as the beachhead?',
      'What else is needed, beyond the core product, to deliver a complete solution?',
      'Which adjacent segments follow once the beachhead is won?',
    ],
    queryHints: ['early adopters', 'mainstream adoption', 'enterprise buyers', 'reference customers'],
    sections: ['Early market', 'The chasm', 'Beachhead segment', 'Whole product', 'Bowling pin expansion'],
  },
  {
    id: 'diffusion-of-innovations',
    name: 'Diffusion of Innovations',
    category: 'innovation',
    description: 'Why and how fast an innovation spreads, from its attributes and the groups that adopt it.',
    whenToUse: 'When forecasting or explaining the adoption of a new product, practice or technology in a population.',
    questions: [
      'How much better is it than what it replaces?',
      'How well does it fit existing values, habits and systems?',
      'How hard is it to understand and use?',
      'Can people try it first, and can they see others using it?',
      'Which adopter groups have taken it up so far?',
    ],
    queryHints: ['adoption rate', 'barriers to adoption', 'early adopters', 'uptake statistics'],
    sections: [
      'Relative advantage',
      'Compatibility',
      'Complexity',
      'Trialability and observability',
      'Adopter categories',
    ],
  },
  {
    id: 'ten-types-of-innovation',
    name: 'Ten Types of Innovation',
    category: 'innovation',
    description:
      'Innovation beyond the product: in the profit model, network, structure, process, service, channel, brand and engagement.',
    whenToUse:
      'When an organization or industry innovates only in products, or when analyzing how a competitor really innovated.',
    questions: [
      'Has the way of making money or partnering changed?',
      'Has the organization or its processes changed?',
      'What is new in the product and the system around it?',
      'What is new in service, channels, brand and customer engagement?',
    ],
    queryHints: ['new business model', 'partnerships', 'process innovation', 'customer experience innovation'],
    sections: [
      'Profit model and network',
      'Structure and process',
      'Product performance',
      'Product system',
      'Service and channel',
      'Brand and customer engagement',
    ],
  },
  {
    id: 'stage-gate',
    name: 'Stage-Gate Process',
    category: 'innovation',
    description: 'Moves new products through stages of work separated by go or kill decisions.',
    whenToUse:
      'When reviewing how a new product or project is developed and funded, or where it stands in the pipeline.',
    questions: [
      'How was the idea found and scoped?',
      'What business case supports it?',
      'How far has development got?',
      'What did testing and validation show?',
      'How is it being launched?',
      'Which go or kill decisions were made, and on what criteria?',
    ],
    queryHints: ['product development pipeline', 'business case', 'product testing', 'product launch'],
    sections: [
      'Discovery and scoping',
      'Business case',
      'Development',
      'Testing and validation',
      'Launch',
      'Gate decisions',
    ],
  },
  {
    id: 'double-diamond',
    name: 'Double Diamond',
    category: 'innovation',
    description: 'Design as two rounds of widening then narrowing: first on the problem, then on the solution.',
    whenToUse:
      'When a design or service problem is not yet well understood, and the work must avoid jumping to a solution.',
    questions: [
      'What did research into the problem uncover?',
      'How has the problem been framed as a result?',
      'Which solutions were explored?',
      'Which solution was refined, tested and delivered?',
    ],
    queryHints: ['user research', 'problem definition', 'design prototypes', 'service design'],
    sections: ['Discover', 'Define', 'Develop', 'Deliver'],
  },
  {
    id: 'scamper',
    name: 'SCAMPER',
    category: 'innovation',
    description:
      'Generates new ideas from an existing product by substituting, combining, adapting, modifying, repurposing, eliminating or reversing.',
    whenToUse:
      'When improving an existing product or process and looking for a structured range of variations to consider.',
    questions: [
      'What part or material could be replaced?',
      'What could be combined with something else?',
      'What could be borrowed from elsewhere, or changed in size or form?',
      'What other use could it have?',
      'What could be removed, or done in reverse?',
    ],
    queryHints: ['product variations', 'alternative materials', 'new uses', 'product redesign'],
    sections: ['Substitute', 'Combine', 'Adapt', 'Modify', 'Put to another use', 'Eliminate', 'Reverse'],
  },
]
