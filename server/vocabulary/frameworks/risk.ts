// Risk lenses: what could go wrong, how likely and how bad, and what stands in the way.
import type { Framework } from '#server/vocabulary/frameworks/types.ts'

export const riskFrameworks: Framework[] = [
  {
    id: 'risk-matrix',
    name: 'Risk Matrix',
    category: 'risk',
    description: 'Rates each risk by likelihood and impact to decide which need action first.',
    whenToUse:
      'When a project, product or organization faces many risks and attention has to go to the ones that matter most.',
    questions: [
      'Which risks does the evidence point to?',
      'How likely is each one?',
      'How bad would each be if it happened?',
      'Which risks fall in the high-likelihood, high-impact corner?',
      'What mitigations exist, and who owns them?',
    ],
    queryHints: ['key risks', 'probability of failure', 'impact severity', 'risk mitigation'],
    sections: ['Risk register', 'Likelihood', 'Severity of impact', 'Heat map', 'Mitigations and owners'],
  },
  {
    id: 'premortem',
    name: 'Premortem',
    category: 'risk',
    description: 'Assumes a plan has already failed and works backwards to the likeliest reasons.',
    whenToUse:
      'Before committing to a plan, launch or investment, to surface risks that optimism or group pressure would hide.',
    questions: [
      'If this failed badly in a year, what would the failure look like?',
      'What are the most plausible reasons it failed?',
      'Which of those have happened to similar efforts before?',
      'Which early signs would show it heading that way?',
      'What can be done now to prevent or limit it?',
    ],
    queryHints: ['why projects fail', 'failure case studies', 'lessons learned', 'warning signs'],
    sections: ['The imagined failure', 'Reasons it failed', 'Early warning signs', 'Preventive actions'],
  },
  {
    id: 'fmea',
    name: 'Failure Mode and Effects Analysis',
    category: 'risk',
    description: 'Lists the ways a product or process can fail and ranks them by severity, occurrence and detection.',
    whenToUse:
      'For engineered products, medical devices, manufacturing and critical processes, where failures must be anticipated systematically.',
    questions: [
      'In what ways can each component or step fail?',
      'What happens when it does, and how severe is that?',
      'What causes each failure, and how often does it occur?',
      'How likely is the failure to be caught before it does harm?',
      'Which failure modes rank highest, and what would reduce them?',
    ],
    queryHints: ['failure modes', 'defect causes', 'safety incidents recalls', 'quality control detection'],
    sections: [
      'Failure modes',
      'Effects and severity',
      'Causes and occurrence',
      'Detection',
      'Risk priority',
      'Recommended actions',
    ],
  },
  {
    id: 'bowtie',
    name: 'Bowtie Analysis',
    category: 'risk',
    description: 'Maps the causes of a hazardous event and its consequences, with the barriers on each side.',
    whenToUse:
      'For major hazards in safety, security and operations, to show which controls prevent an event and which limit the damage.',
    questions: [
      'What is the central event to avoid?',
      'Which threats could cause it?',
      'Which barriers stop those threats from causing it?',
      'What would the consequences be?',
      'Which barriers limit or recover from those consequences?',
      'What could weaken the barriers?',
    ],
    queryHints: ['incident causes', 'safety controls', 'accident consequences', 'emergency response'],
    sections: [
      'Top event',
      'Threats and causes',
      'Preventive barriers',
      'Consequences',
      'Recovery barriers',
      'Escalation factors',
    ],
  },
  {
    id: 'cross-impact-analysis',
    name: 'Cross-Impact Analysis',
    category: 'risk',
    description: 'Estimates how the occurrence of one future event changes the likelihood of others.',
    whenToUse:
      'In forecasting and foresight, when the events of interest are linked and judging each one alone would mislead.',
    questions: [
      'Which future events or trends matter for the question?',
      'How likely is each one on its own?',
      'If one happens, how does it change the odds of the others?',
      'Which events reinforce each other, and which cancel out?',
      'Which combinations of events are most consistent?',
    ],
    queryHints: ['future events probability', 'interdependent trends', 'forecast assumptions', 'expert predictions'],
    sections: [
      'Key events and trends',
      'Initial likelihoods',
      'Cross-impact matrix',
      'Reinforcing and dampening links',
      'Most consistent futures',
    ],
  },
  {
    id: 'swiss-cheese-model',
    name: 'Swiss Cheese Model',
    category: 'risk',
    description: 'Accidents happen when the holes in several layers of defence line up.',
    whenToUse:
      'When investigating an incident or reviewing safety in a complex system, to look past the last person involved.',
    questions: [
      'Which layers of defence are meant to stop the failure?',
      'Which hidden weaknesses in design, training or management exist in each layer?',
      'Which unsafe acts or errors occurred at the front line?',
      'How did the weaknesses line up to let the failure through?',
      'Which layers could be strengthened, or added?',
    ],
    queryHints: ['incident investigation', 'safety failures', 'root causes systemic', 'accident report'],
    sections: [
      'Layers of defence',
      'Latent conditions',
      'Active failures',
      'Aligned holes',
      'Strengthening the layers',
    ],
  },
]
