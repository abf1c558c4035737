// Policy lenses: the rules, the people with a stake in them, and how public decisions get made.
import type { Framework } from '#server/vocabulary/frameworks/types.ts'

export const policyFrameworks: Framework[] = [
  {
    id: 'regulatory-landscape',
    name: 'Regulatory Landscape',
    category: 'policy',
    description: 'The rules that govern an activity, who enforces them, and where they are heading.',
    whenToUse:
      'Before entering a regulated market or launching a product where compliance shapes cost, timing or feasibility.',
    questions: [
      'Which laws, regulations and standards apply today?',
      'What is proposed or pending, and on what timeline?',
      'Which authorities enforce the rules, and how actively?',
      'How do the rules differ across jurisdictions?',
      'What does compliance cost, and where is regulation heading?',
    ],
    queryHints: ['regulation', 'proposed rules consultation', 'enforcement actions', 'compliance requirements'],
    sections: [
      'Rules in force',
      'Pending and proposed rules',
      'Regulators and enforcement',
      'Jurisdictional differences',
      'Compliance burden',
      'Direction of travel',
    ],
  },
  {
    id: 'stakeholder-map',
    name: 'Stakeholder Map',
    category: 'policy',
    description: 'Who has a stake in an issue, what they want, how much influence they have, and how they relate.',
    whenToUse: 'When a decision, policy or project depends on many parties, to plan who to engage and how.',
    questions: [
      'Who is affected by the issue or can affect it?',
      'What does each party want, and what do they fear?',
      'How much power or influence does each have?',
      'Which parties are allied or opposed?',
      'Where do they stand now, and how should each be engaged?',
    ],
    queryHints: ['stakeholders', 'industry groups lobbying', 'public opinion', 'advocacy positions'],
    sections: [
      'Stakeholders and interests',
      'Influence and power',
      'Relationships and coalitions',
      'Current positions',
      'Engagement approach',
    ],
  },
  {
    id: 'stakeholder-salience',
    name: 'Stakeholder Salience Model',
    category: 'policy',
    description: 'Ranks stakeholders by their power, the legitimacy of their claim and the urgency of their demands.',
    whenToUse:
      'When there are more stakeholders than can be attended to, and the question is whose claims demand attention now.',
    questions: [
      'Which stakeholders can impose their will?',
      'Whose claims are seen as legitimate?',
      'Whose demands are pressing and time-sensitive?',
      'Which stakeholders have all three attributes?',
      'Which could gain an attribute and become more salient?',
    ],
    queryHints: ['stakeholder demands', 'regulator pressure', 'activist campaigns', 'public controversy'],
    sections: ['Power', 'Legitimacy', 'Urgency', 'Definitive stakeholders', 'Latent and expectant stakeholders'],
  },
  {
    id: 'policy-cycle',
    name: 'Policy Cycle',
    category: 'policy',
    description:
      'Follows a public policy from agenda setting through formulation, adoption, implementation and evaluation.',
    whenToUse: 'When tracking a policy issue and the question is where it stands in the process and what comes next.',
    questions: [
      'How did the issue get onto the agenda?',
      'Which options were drafted, and by whom?',
      'Has a decision been adopted, and in what form?',
      'How is it being implemented?',
      'What have evaluations found?',
    ],
    queryHints: ['policy proposal', 'legislation passed', 'policy implementation', 'policy evaluation'],
    sections: ['Agenda setting', 'Formulation', 'Adoption', 'Implementation', 'Evaluation'],
  },
  {
    id: 'multiple-streams',
    name: 'Multiple Streams Framework',
    category: 'policy',
    description: 'Policy changes when a recognized problem, an available solution and political will converge.',
    whenToUse:
      'When asking why an issue suddenly moved up the political agenda, or whether a window for change is opening.',
    questions: [
      'Which problem is drawing attention, and through what events or data?',
      'Which policy solutions are ready and discussed?',
      'What is the political mood, and who holds power?',
      'Who is pushing to connect problem and solution?',
      'Is a window of opportunity open, and how long might it last?',
    ],
    queryHints: ['policy debate', 'political agenda', 'proposed solutions', 'policy advocates'],
    sections: ['Problem stream', 'Policy stream', 'Politics stream', 'Policy entrepreneurs', 'Policy window'],
  },
  {
    id: 'cost-benefit-analysis',
    name: 'Cost-Benefit Analysis',
    category: 'policy',
    description: 'Weighs the costs of a policy or project against its benefits, in money where possible, over time.',
    whenToUse:
      'When comparing policy options, regulations or public investments, and the question is whether the gains justify the costs.',
    questions: [
      'Which options, including doing nothing, are being compared?',
      'What does each cost, and who pays?',
      'What benefits does each bring, and to whom?',
      'How are costs and benefits distributed across groups?',
      'What is the net present value, and how sensitive is it to assumptions?',
    ],
    queryHints: ['impact assessment', 'economic costs', 'estimated benefits', 'policy options'],
    sections: ['Options compared', 'Costs', 'Benefits', 'Distribution of effects', 'Net present value and sensitivity'],
  },
  {
    id: 'logic-model',
    name: 'Logic Model',
    category: 'policy',
    description: 'Links the resources and activities of a program to its outputs, outcomes and long-term impact.',
    whenToUse:
      'When planning or evaluating a program, grant or public intervention, to check how it is supposed to work and whether it does.',
    questions: [
      'What resources go into the program?',
      'What does it do with them?',
      'What does it directly produce?',
      'What changes for participants, in the short and medium term?',
      'What long-term impact is claimed, and on which assumptions?',
    ],
    queryHints: ['program evaluation', 'program outcomes', 'funding and activities', 'impact evidence'],
    sections: ['Inputs', 'Activities', 'Outputs', 'Outcomes', 'Impact', 'Assumptions and external factors'],
  },
]
