// Customer lenses: who the customers are, what they are trying to do, and how they behave over time.
import type { Framework } from '#server/vocabulary/frameworks/types.ts'

export const customerFrameworks: Framework[] = [
  {
    id: 'jobs-to-be-done',
    name: 'Jobs to be Done',
    category: 'customer',
    description: 'The progress customers are trying to make, and what they hire products to do it.',
    whenToUse:
      'When demographic segments do not explain why people buy, switch or churn, and the underlying need has to be found.',
    questions: [
      'What progress is the customer trying to make, in which circumstances?',
      'What do they use today, and what workarounds do they put up with?',
      'What pushes them to switch, and what holds them back?',
      'Which needs are underserved by every current option?',
    ],
    queryHints: ['customer needs', 'switching reasons', 'workarounds', 'unmet needs'],
    sections: ['Core job', 'Pains and workarounds', 'Switching triggers', 'Opportunities'],
  },
  {
    id: 'customer-journey',
    name: 'Customer Journey Map',
    category: 'customer',
    description:
      'The stages a customer goes through from first awareness to loyalty, and what they experience at each.',
    whenToUse:
      'When improving conversion or experience across channels, to see where customers drop out or get frustrated.',
    questions: [
      'How do customers first hear about the offer?',
      'How do they compare options and decide?',
      'What is buying and getting started like?',
      'What makes them stay, come back or recommend it?',
      'Where along the way do they struggle or give up?',
    ],
    queryHints: ['customer experience', 'purchase decision process', 'onboarding experience', 'customer complaints'],
    sections: [
      'Awareness',
      'Consideration',
      'Purchase',
      'Onboarding and use',
      'Loyalty and advocacy',
      'Moments of friction',
    ],
  },
  {
    id: 'empathy-map',
    name: 'Empathy Map',
    category: 'customer',
    description: 'What a user says, thinks, does and feels, with the pains and gains behind it.',
    whenToUse: 'Early in design or research, to build a shared picture of a user from interviews, reviews and forums.',
    questions: [
      'What do users say about the problem in their own words?',
      'What do they think or believe but may not say?',
      'What do they actually do?',
      'What do they feel and worry about?',
      'What would they count as a win?',
    ],
    queryHints: ['user interviews', 'user reviews forums', 'user frustrations', 'user behaviour research'],
    sections: [
      'Spoken words and quotes',
      'Thoughts and beliefs',
      'Observed behaviour',
      'Feelings and worries',
      'Pains',
      'Gains',
    ],
  },
  {
    id: 'persona',
    name: 'User Persona',
    category: 'customer',
    description: 'An archetype of a customer segment, drawn from research, with goals, frustrations and habits.',
    whenToUse:
      'When a team needs a concrete picture of who it is building or marketing for, grounded in evidence rather than guesswork.',
    questions: [
      'Who is this customer, in what role and context?',
      'What are they trying to achieve?',
      'What frustrates them about current options?',
      'Where do they look for information, and how do they behave?',
      'How do they decide what to buy?',
    ],
    queryHints: ['customer profile', 'buyer persona research', 'user goals', 'purchase criteria'],
    sections: ['Profile and context', 'Goals', 'Frustrations', 'Behaviours and channels', 'Decision criteria'],
  },
  {
    id: 'aarrr',
    name: 'AARRR Pirate Metrics',
    category: 'customer',
    description: 'The customer funnel as acquisition, activation, retention, referral and revenue.',
    whenToUse: 'When diagnosing where a product loses customers, especially a startup or a self-serve digital product.',
    questions: [
      'Where do users come from, and at what cost?',
      'Do they reach a first moment of value?',
      'Do they come back?',
      'Do they bring others?',
      'Do they pay, and how much?',
    ],
    queryHints: ['user acquisition channels', 'activation rate', 'retention rate', 'referral program', 'monetization'],
    sections: ['Acquisition', 'Activation', 'Retention', 'Referral', 'Revenue'],
  },
  {
    id: 'cohort-retention',
    name: 'Cohort Retention Analysis',
    category: 'customer',
    description: 'Follows groups of customers who started together to see how many stay, and why.',
    whenToUse:
      'When growth figures hide whether customers stick, or to judge whether a product change improved retention.',
    questions: [
      'How are cohorts defined: by signup month, channel or plan?',
      'How quickly does each cohort decay, and does the curve flatten?',
      'Why do customers leave?',
      'Do the customers who stay spend more over time?',
      'Are newer cohorts retaining better or worse than older ones?',
    ],
    queryHints: ['customer retention curve', 'churn rate', 'net revenue retention', 'cohort analysis'],
    sections: [
      'Cohort definition',
      'Retention curves',
      'Churn drivers',
      'Expansion and resurrection',
      'Cohort trends over time',
    ],
  },
  {
    id: 'nps',
    name: 'Net Promoter Score',
    category: 'customer',
    description:
      'Loyalty measured by how likely customers are to recommend, split into promoters, passives and detractors.',
    whenToUse:
      'When comparing customer loyalty across companies, products or time, and looking for what drives recommendations.',
    questions: [
      'What share of customers would actively recommend the product, and why?',
      'Who is satisfied but unenthusiastic?',
      'Who is unhappy, and what are they complaining about?',
      'How does the score compare with competitors and industry benchmarks?',
    ],
    queryHints: ['net promoter score', 'customer satisfaction survey', 'customer complaints', 'industry benchmark'],
    sections: ['Promoters', 'Passives', 'Detractors', 'Score and benchmarks', 'Reasons behind the score'],
  },
]
