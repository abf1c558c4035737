// Technology lenses: how mature a technology is, where it is heading, and how well teams deliver it.
import type { Framework } from '#server/vocabulary/frameworks/types.ts'

export const technologyFrameworks: Framework[] = [
  {
    id: 'technology-readiness-levels',
    name: 'Technology Readiness Levels',
    category: 'technology',
    description: 'Rates how mature a technology is on a nine-level scale from basic principles to proven operation.',
    whenToUse:
      'When judging whether a technology is ready to invest in, buy or deploy, and how far it is from real-world use.',
    questions: [
      'Has the principle been shown only in the lab, or in a working prototype?',
      'Has it been validated in a relevant or real environment?',
      'Has a full system been demonstrated and qualified?',
      'Is it proven in actual operation?',
      'What stands between it and the next level?',
    ],
    queryHints: ['prototype demonstration', 'pilot deployment', 'commercial readiness', 'lab results'],
    sections: [
      'Basic research (TRL 1-3)',
      'Development and validation (TRL 4-6)',
      'Demonstration and qualification (TRL 7-8)',
      'Proven in operation (TRL 9)',
      'Barriers to the next level',
    ],
  },
  {
    id: 'wardley-map',
    name: 'Wardley Map',
    category: 'technology',
    description: 'Maps the components that serve a user need by how visible they are and how evolved they are.',
    whenToUse:
      'When deciding what to build, buy or outsource, or anticipating which parts of a technology stack are becoming commodities.',
    questions: [
      'Who is the user, and what do they need?',
      'Which components does meeting that need depend on?',
      'How evolved is each: novel, custom-built, product or commodity?',
      'Which components are moving, and what inertia resists the move?',
      'Which plays does the map suggest?',
    ],
    queryHints: ['technology stack components', 'commoditization', 'build vs buy', 'industry evolution'],
    sections: ['User needs', 'Value chain components', 'Evolution stage', 'Movement and inertia', 'Strategic plays'],
  },
  {
    id: 'hype-cycle',
    name: 'Hype Cycle',
    category: 'technology',
    description: 'Where a technology sits between its first buzz, disillusionment and productive use.',
    whenToUse:
      'When a technology is much discussed and the question is how much of the attention is backed by results.',
    questions: [
      'What triggered interest in the technology?',
      'Are expectations running ahead of evidence?',
      'Have failures and disappointment set in?',
      'Where is it delivering measurable value?',
      'How widely is it used in production?',
    ],
    queryHints: ['technology hype', 'adoption challenges', 'real-world deployments', 'disappointing results'],
    sections: [
      'Innovation trigger',
      'Peak of inflated expectations',
      'Trough of disillusionment',
      'Slope of enlightenment',
      'Plateau of productivity',
    ],
  },
  {
    id: 'technology-radar',
    name: 'Technology Radar',
    category: 'technology',
    description: 'Sorts technologies, tools and techniques into adopt, trial, assess and hold.',
    whenToUse:
      'When an engineering organization has to decide which tools and techniques to standardize on, try out, watch or avoid.',
    questions: [
      'Which technologies are proven enough to use by default?',
      'Which are worth trying on a real project with managed risk?',
      'Which are worth exploring to understand?',
      'Which should new work avoid, and why?',
    ],
    queryHints: ['production experience', 'developer adoption', 'tool comparison', 'known problems'],
    sections: ['Adopt', 'Trial', 'Assess', 'Hold'],
  },
  {
    id: 'dora-metrics',
    name: 'DORA Metrics',
    category: 'technology',
    description:
      'Software delivery performance as deployment frequency, lead time, change failure rate and recovery time.',
    whenToUse:
      'When assessing or comparing how well a software organization delivers, and which practices would improve it.',
    questions: [
      'How often does the team deploy to production?',
      'How long does a change take from commit to production?',
      'What share of changes cause a failure?',
      'How quickly is service restored after a failure?',
      'Which practices and capabilities explain the results?',
    ],
    queryHints: ['deployment frequency', 'software delivery performance', 'incident recovery', 'devops practices'],
    sections: [
      'Deployment frequency',
      'Lead time for changes',
      'Change failure rate',
      'Time to restore service',
      'Capabilities that drive them',
    ],
  },
  {
    id: 'technology-s-curve',
    name: 'Technology S-Curve',
    category: 'technology',
    description: 'A technology improves slowly, then fast, then slowly again as it nears its limits.',
    whenToUse:
      'When judging whether an established technology has much improvement left, or a newer one is about to overtake it.',
    questions: [
      'How fast is performance improving now, and at what effort?',
      'Which physical or economic limits is it approaching?',
      'Which newer technologies are improving faster?',
      'When could the newer one match or pass the old?',
    ],
    queryHints: ['performance improvement rate', 'technical limits', 'next-generation technology', 'cost curve'],
    sections: ['Current performance curve', 'Approaching limits', 'Successor technologies', 'Crossover timing'],
  },
]
