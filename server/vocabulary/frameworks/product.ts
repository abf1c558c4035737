// Product lenses: what to build next, for whom, and how to tell whether it is working.
import type { Framework } from '#server/vocabulary/frameworks/types.ts'

export const productFrameworks: Framework[] = [
  {
    id: 'rice',
    name: 'RICE prioritization',
    category: 'product',
    description: 'Ranks options by reach, impact, confidence and effort.',
    whenToUse:
      'When a team has more candidate features or projects than capacity and wants a comparable score for each.',
    questions: [
      'How many people or events will each option affect in a given period?',
      'How much will it move the goal for each of them?',
      'How strong is the evidence behind those estimates?',
      'How much work will it take?',
    ],
    queryHints: ['adoption numbers', 'measured impact', 'evidence quality', 'implementation cost'],
    sections: ['Reach', 'Impact', 'Confidence', 'Effort'],
  },
  {
    id: 'kano-model',
    name: 'Kano Model',
    category: 'product',
    description: 'Which features are basic expectations, performance drivers or delighters.',
    whenToUse:
      'When deciding which features to invest in, because not every feature raises satisfaction in proportion to the effort.',
    questions: [
      'Which features do customers assume and punish when missing?',
      'Which features raise satisfaction the more of them there is?',
      'Which unexpected features delight customers?',
      'Which features do customers ignore or actively dislike?',
    ],
    queryHints: ['must-have features', 'performance features', 'delighters', 'customer satisfaction'],
    sections: ['Basic expectations', 'Performance attributes', 'Delighters', 'Indifferent or reverse'],
  },
  {
    id: 'moscow',
    name: 'MoSCoW Prioritization',
    category: 'product',
    description: "Sorts requirements into must have, should have, could have and won't have this time.",
    whenToUse:
      'When a release or project has a fixed deadline or budget and the scope has to be cut in a way stakeholders agree to.',
    questions: [
      'Without which requirements would the release fail or be unusable?',
      'Which requirements matter but could wait for a later release?',
      'Which are nice to have if time allows?',
      'What is explicitly left out this time, and who has agreed to that?',
    ],
    queryHints: ['essential requirements', 'minimum viable scope', 'feature trade-offs', 'release scope'],
    sections: [
      'Essential for launch (must)',
      'Important but deferrable (should)',
      'Nice to have (could)',
      "Explicitly out of scope (won't)",
    ],
  },
  {
    id: 'ice-scoring',
    name: 'ICE Scoring',
    category: 'product',
    description: 'A fast score for ideas or experiments from their impact, the confidence in it, and their ease.',
    whenToUse:
      'For ranking many growth experiments or small ideas quickly, when a fuller model would cost more than the decision is worth.',
    questions: [
      'If it works, how much will the idea move the target metric?',
      'What evidence suggests it will work?',
      'How cheap and quick is it to try?',
    ],
    queryHints: ['experiment results', 'growth experiments impact', 'case study evidence', 'implementation effort'],
    sections: ['Impact', 'Confidence', 'Ease', 'Ranked shortlist'],
  },
  {
    id: 'value-proposition-canvas',
    name: 'Value Proposition Canvas',
    category: 'product',
    description: "Matches what a product offers against a customer segment's jobs, pains and gains.",
    whenToUse:
      'When designing or testing an offer for a specific segment, to check that it relieves real pains and creates wanted gains.',
    questions: [
      'What jobs is the customer trying to get done?',
      'What frustrates them or stands in their way?',
      'What outcomes and benefits do they hope for?',
      'Which parts of the offer relieve those pains and create those gains?',
      'Is there evidence of fit, or only assumptions?',
    ],
    queryHints: ['customer pain points', 'desired outcomes', 'product benefits', 'customer reviews'],
    sections: [
      'Customer jobs',
      'Customer pains',
      'Customer gains',
      'Products and services',
      'Pain relievers',
      'Gain creators',
      'Problem-solution fit',
    ],
  },
  {
    id: 'lean-canvas',
    name: 'Lean Canvas',
    category: 'product',
    description: "A one-page plan of a startup's problem, solution, customers, advantage and economics.",
    whenToUse:
      'For an early-stage product or startup, to lay out its riskiest assumptions before investing in building it.',
    questions: [
      'What problem does it solve, and how do people cope today?',
      'Who are the first customers most likely to adopt it?',
      'What is the single, clear reason to choose it?',
      'Which metrics show it is working, and what advantage cannot be easily copied?',
      'How will it make money, and what will it cost?',
    ],
    queryHints: [
      'startup problem',
      'existing alternatives',
      'early adopters',
      'unfair advantage',
      'startup revenue model',
    ],
    sections: [
      'Problem and existing alternatives',
      'Customer segments and early adopters',
      'Unique value proposition',
      'Solution and key metrics',
      'Channels and unfair advantage',
      'Revenue and cost structure',
    ],
  },
  {
    id: 'heart-framework',
    name: 'HEART Framework',
    category: 'product',
    description: 'User experience measured as happiness, engagement, adoption, retention and task success.',
    whenToUse:
      'When choosing metrics for a product or feature, so that the user experience is measured and not only revenue.',
    questions: [
      'How satisfied are users, by survey or ratings?',
      'How often and how deeply do they use the product?',
      'How many new users take up the product or feature?',
      'How many keep coming back?',
      'Can users complete key tasks quickly and without errors?',
    ],
    queryHints: ['user satisfaction', 'user engagement', 'feature adoption', 'user retention', 'usability'],
    sections: ['Happiness', 'Engagement', 'Adoption', 'Retention', 'Task success'],
  },
  {
    id: 'opportunity-solution-tree',
    name: 'Opportunity Solution Tree',
    category: 'product',
    description:
      'Links a desired outcome to customer opportunities, candidate solutions and the tests that check them.',
    whenToUse:
      'In continuous product discovery, to keep solutions tied to an outcome and to see which assumptions still need testing.',
    questions: [
      'Which measurable outcome is the team trying to move?',
      'Which customer needs, pains or desires could move it?',
      'What solutions address the most promising opportunity?',
      'Which assumptions behind them can be tested cheaply, and what did tests show?',
    ],
    queryHints: ['product outcomes', 'customer needs', 'solution ideas', 'assumption testing'],
    sections: ['Desired outcome', 'Opportunities', 'Candidate solutions', 'Assumption tests'],
  },
  {
    id: 'north-star-metric',
    name: 'North Star Metric',
    category: 'product',
    description: 'The single metric that best captures the value customers get, and the inputs that drive it.',
    whenToUse:
      'When a product team needs one shared measure of progress that predicts long-term growth better than revenue alone.',
    questions: [
      'Which metric best reflects customers getting value from the product?',
      'Which inputs can teams move that drive it?',
      'Does the metric lead revenue and retention, or only follow them?',
      'Which guardrail metrics keep it from being gamed?',
    ],
    queryHints: ['key product metric', 'growth drivers', 'customer value', 'leading indicators'],
    sections: ['The north star metric', 'Input metrics', 'Link to customer value', 'Counter-metrics and guardrails'],
  },
]
