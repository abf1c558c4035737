// Market lenses: the forces around a market, its size, and how its players are positioned.
import type { Framework } from '#server/vocabulary/frameworks/types.ts'

export const marketFrameworks: Framework[] = [
  {
    id: 'pestle',
    name: 'PESTLE',
    category: 'market',
    description: 'Political, economic, social, technological, legal and environmental forces.',
    whenToUse:
      'For a broad scan of the macro environment around a market or country, when legal and environmental forces matter as much as the rest.',
    questions: [
      'Which government actions and political shifts affect the market?',
      'How do growth, inflation, interest rates and spending affect demand?',
      'Which demographic and cultural changes are under way?',
      'Which technologies are changing how the market works?',
      'Which laws and environmental pressures constrain or favour it?',
    ],
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
  {
    id: 'pest',
    name: 'PEST Analysis',
    category: 'market',
    description: 'The political, economic, social and technological forces acting on a market.',
    whenToUse:
      'For a quick macro scan where legal and environmental forces are minor, or are covered by the political one.',
    questions: [
      'Which political decisions or instabilities affect the market?',
      'Which economic conditions drive demand and costs?',
      'Which social and demographic trends change what people want?',
      'Which technological changes open or close options?',
    ],
    queryHints: ['government policy', 'economic outlook', 'consumer trends', 'technology adoption'],
    sections: ['Political', 'Economic', 'Social', 'Technological'],
  },
  {
    id: 'steep',
    name: 'STEEP Analysis',
    category: 'market',
    description:
      'Social, technological, economic, environmental and political forces, with ecology given its own place.',
    whenToUse:
      'For foresight and trend scanning where climate, resources and sustainability are central to the question.',
    questions: [
      'Which social shifts are changing behaviour and values?',
      'Which technologies are maturing or spreading?',
      'Which economic conditions are changing?',
      'Which environmental and resource pressures are growing?',
      'Which political forces could accelerate or block change?',
    ],
    queryHints: ['social change', 'emerging technology', 'economic conditions', 'climate sustainability', 'politics'],
    sections: ['Social', 'Technological', 'Economic', 'Environmental', 'Political'],
  },
  {
    id: 'tam-sam-som',
    name: 'TAM, SAM, SOM',
    category: 'market',
    description: 'Market size in three rings: total addressable, serviceable available and serviceable obtainable.',
    whenToUse:
      'When sizing a market for a business case, a pitch or an investment, and separating the theoretical market from the reachable one.',
    questions: [
      'What is the total spending on this need across all customers?',
      'Which part of that can the business actually serve with its product and channels?',
      'What share can it realistically win in the next few years?',
      'Which sources and assumptions are the estimates built on, top-down or bottom-up?',
    ],
    queryHints: ['market size', 'market size forecast', 'segment revenue', 'market share estimates'],
    sections: [
      'Total addressable market',
      'Serviceable available market',
      'Serviceable obtainable market',
      'Sizing method and assumptions',
    ],
  },
  {
    id: 'porters-diamond',
    name: "Porter's Diamond",
    category: 'market',
    description: 'Why some nations or regions produce globally competitive industries.',
    whenToUse:
      'When comparing countries or regions as places to build, source or sell, or when studying industrial policy.',
    questions: [
      'Which skills, infrastructure, capital and resources does the location offer?',
      'How demanding and sophisticated are local customers?',
      'Are strong supplier and related industries nearby?',
      'How fierce is local rivalry, and how are firms organized?',
      'How do government policy and chance events shape the industry there?',
    ],
    queryHints: ['national competitiveness', 'industry cluster', 'skilled workforce infrastructure', 'local demand'],
    sections: [
      'Factor conditions',
      'Demand conditions',
      'Related and supporting industries',
      'Firm strategy, structure and rivalry',
      'Government and chance',
    ],
  },
  {
    id: 'network-effects',
    name: 'Network Effects',
    category: 'market',
    description: 'How a product gains value as more people use it, and what limits that dynamic.',
    whenToUse:
      'For marketplaces, platforms, social products and standards, where the number of users decides who wins.',
    questions: [
      'Is the effect direct, between users of one kind, or across sides of a marketplace?',
      'How strong is it, and does it level off after some size?',
      'Can users easily use several competing networks at once?',
      'Is there a tipping point past which one network dominates?',
      'Could growth make the product worse through congestion or spam?',
    ],
    queryHints: ['platform network effects', 'marketplace liquidity', 'multi-homing', 'winner takes all'],
    sections: [
      'Type of network effect',
      'Strength and saturation',
      'Multi-homing and switching',
      'Tipping point dynamics',
      'Reverse network effects',
    ],
  },
  {
    id: 'strategic-group-map',
    name: 'Strategic Group Map',
    category: 'market',
    description: 'Groups competitors that follow similar strategies on the two dimensions that matter most.',
    whenToUse:
      'When a market has many competitors and the question is who really competes with whom, and where the open spaces are.',
    questions: [
      'Which two strategic dimensions best separate the competitors?',
      'Which competitors cluster together?',
      'What keeps firms from moving from one group to another?',
      'Which positions are unoccupied, and why?',
    ],
    queryHints: ['competitor comparison', 'competitive landscape', 'pricing and product range', 'market positioning'],
    sections: ['Strategic dimensions', 'Competitor groups', 'Mobility barriers', 'Empty spaces'],
  },
  {
    id: 'perceptual-map',
    name: 'Perceptual Map',
    category: 'market',
    description: 'Where buyers place competing brands on the attributes they care about.',
    whenToUse:
      'For positioning and brand decisions, when the question is how buyers see the options rather than how firms describe them.',
    questions: [
      'Which attributes do buyers use to tell the options apart?',
      'Where do buyers place each brand on them?',
      'Where does perception differ from what the brand intends?',
      'Which positions are crowded, and which could a brand move to?',
    ],
    queryHints: ['brand perception', 'customer survey brands', 'brand comparison reviews', 'brand positioning'],
    sections: ['Buyer criteria', 'Competitor positions', 'Perception gaps', 'Repositioning options'],
  },
  {
    id: 'stp',
    name: 'Segmentation, Targeting, Positioning',
    category: 'market',
    description: 'Divides a market into segments, chooses which to serve, and defines a position for each.',
    whenToUse:
      'When planning marketing or a launch for a market that is too varied to serve with one offer and one message.',
    questions: [
      'On which needs, behaviours or traits does the market divide?',
      'How large, growing, profitable and reachable is each segment?',
      'Which segments fit the business best?',
      'What position should the offer take in the minds of each target segment?',
    ],
    queryHints: ['market segments', 'customer demographics', 'target audience', 'positioning strategy'],
    sections: ['Segmentation bases', 'Segment attractiveness', 'Target segments', 'Positioning statement'],
  },
]
