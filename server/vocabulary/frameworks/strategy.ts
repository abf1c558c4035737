// Strategy lenses: where to compete, how to win there, and what the organization needs to do it.
import type { Framework } from '#server/vocabulary/frameworks/types.ts'

export const strategyFrameworks: Framework[] = [
  {
    id: 'porter-five-forces',
    name: "Porter's Five Forces",
    category: 'strategy',
    description: 'How attractive an industry is, from the pressure of five competitive forces.',
    whenToUse:
      'Before entering, investing in or pricing within an industry, to see who captures the profit and why margins are where they are.',
    questions: [
      'How hard is it for a new competitor to enter, and what keeps them out?',
      'How much leverage do suppliers and buyers have over price and terms?',
      'Which substitutes could meet the same need another way?',
      'How intense is rivalry among the existing players?',
    ],
    queryHints: ['new entrants barriers', 'supplier power', 'buyer power', 'substitutes', 'competitive rivalry'],
    sections: ['Threat of new entrants', 'Supplier power', 'Buyer power', 'Threat of substitutes', 'Rivalry'],
  },
  {
    id: 'ansoff-matrix',
    name: 'Ansoff Matrix',
    category: 'strategy',
    description: 'Growth paths: market penetration, market development, product development, diversification.',
    whenToUse:
      'When a business is choosing where its next growth should come from and wants to weigh the risk of each path.',
    questions: [
      'How much more can be sold to existing customers with existing products?',
      'Which new markets or segments could the current products reach?',
      'What new products would existing customers buy?',
      'Is diversification into new products for new markets justified by the evidence?',
    ],
    queryHints: ['market share growth', 'new markets', 'new products', 'diversification moves'],
    sections: ['Market penetration', 'Market development', 'Product development', 'Diversification'],
  },
  {
    id: 'blue-ocean',
    name: 'Blue Ocean Strategy',
    category: 'strategy',
    description: 'Uncontested market space: what to eliminate, reduce, raise and create.',
    whenToUse:
      'When competitors look alike and compete on the same factors, and the goal is a value curve that escapes head-on rivalry.',
    questions: [
      'Which factors the industry takes for granted could be dropped?',
      'Which factors are over-delivered and could be cut well below the standard?',
      'Which factors deserve to be raised well above the standard?',
      'What has the industry never offered that noncustomers would value?',
    ],
    queryHints: ['underserved segments', 'industry assumptions', 'new value curve', 'noncustomers'],
    sections: ['Eliminate', 'Reduce', 'Raise', 'Create'],
  },
  {
    id: 'swot',
    name: 'SWOT Analysis',
    category: 'strategy',
    description: 'Internal strengths and weaknesses set against external opportunities and threats.',
    whenToUse:
      'For a quick, balanced snapshot of an organization or initiative before a planning decision, or to brief someone new to it.',
    questions: [
      'What does the organization do better than its rivals, by evidence rather than claim?',
      'Where does it fall short in resources, capabilities or reputation?',
      'Which external changes open room to grow?',
      'Which external changes could hurt it most?',
    ],
    queryHints: ['competitive advantages', 'weaknesses criticism', 'growth opportunities', 'threats risks'],
    sections: ['Strengths', 'Weaknesses', 'Opportunities', 'Threats'],
  },
  {
    id: 'swot-tows',
    name: 'TOWS Matrix',
    category: 'strategy',
    description: 'Turns a SWOT into strategies by pairing each internal factor with each external one.',
    whenToUse: 'After a SWOT, when the list of factors has to become a short list of concrete strategic options.',
    questions: [
      'Which strengths can capture which opportunities?',
      'Which weaknesses keep the organization from an opportunity, and how could they be fixed?',
      'Which strengths can blunt which threats?',
      'Where do weaknesses and threats combine into an exposure that needs a defensive move?',
    ],
    queryHints: ['strategic options', 'competitive strengths', 'market opportunities', 'external threats'],
    sections: [
      'Strength-opportunity moves',
      'Weakness-opportunity fixes',
      'Strength-threat defences',
      'Weakness-threat exposures',
    ],
  },
  {
    id: 'bcg-matrix',
    name: 'BCG Growth-Share Matrix',
    category: 'strategy',
    description: 'Sorts a portfolio of businesses or products by market growth and relative market share.',
    whenToUse:
      'When a company with several business units or product lines has to decide where to invest, hold, harvest or exit.',
    questions: [
      'Which units lead fast-growing markets and need investment to keep their lead?',
      'Which units lead mature markets and generate more cash than they use?',
      'Which units are in growing markets without a leading share, and can they win one?',
      'Which units have low share in slow markets and should be fixed or sold?',
    ],
    queryHints: ['market growth rate', 'relative market share', 'business unit performance', 'portfolio divestment'],
    sections: ['Stars', 'Cash cows', 'Question marks', 'Dogs', 'Portfolio balance'],
  },
  {
    id: 'ge-mckinsey-matrix',
    name: 'GE-McKinsey Nine-Box Matrix',
    category: 'strategy',
    description:
      'Rates business units on industry attractiveness and competitive strength to set investment priorities.',
    whenToUse:
      'For portfolio decisions that need more factors than growth and share alone, such as margins, market size and capabilities.',
    questions: [
      'How attractive is each industry by size, growth, profitability and intensity of competition?',
      'How strong is each unit by share, brand, cost position and capabilities?',
      'Which units deserve investment to grow?',
      'Which should be managed selectively for earnings, and which harvested or divested?',
    ],
    queryHints: ['industry attractiveness', 'competitive position', 'segment profitability', 'investment priorities'],
    sections: [
      'Industry attractiveness',
      'Business unit strength',
      'Invest and grow',
      'Selectivity and earnings',
      'Harvest or divest',
    ],
  },
  {
    id: 'mckinsey-7s',
    name: 'McKinsey 7-S Framework',
    category: 'strategy',
    description: 'Checks that seven interdependent elements of an organization fit together.',
    whenToUse:
      'During a reorganization, merger or change program, to find where structure, systems and culture pull against the strategy.',
    questions: [
      'Is the strategy clear, and do structure and systems support it?',
      'What shared values hold the organization together?',
      'How do leadership style, staffing and skills match what the strategy demands?',
      'Which elements are out of line with the others?',
    ],
    queryHints: ['organizational structure', 'corporate culture values', 'leadership style', 'workforce skills'],
    sections: ['Strategy', 'Structure', 'Systems', 'Shared values', 'Style', 'Staff', 'Skills'],
  },
  {
    id: 'vrio',
    name: 'VRIO Framework',
    category: 'strategy',
    description: 'Tests whether a resource or capability can give a sustained competitive advantage.',
    whenToUse:
      'When judging whether an advantage a company claims will last, or which of its assets to protect and build on.',
    questions: [
      'Does the resource let the firm exploit an opportunity or counter a threat?',
      'How many competitors have it too?',
      'How hard and how costly would it be for a rival to copy or substitute it?',
      'Is the organization set up to capture the value it creates?',
    ],
    queryHints: ['core competencies', 'proprietary assets', 'hard to imitate', 'capabilities advantage'],
    sections: ['Valuable', 'Rare', 'Costly to imitate', 'Organized to capture value', 'Sustained advantage'],
  },
  {
    id: 'porters-generic-strategies',
    name: "Porter's Generic Strategies",
    category: 'strategy',
    description: 'Whether a firm wins on lowest cost, on differentiation, or by focusing on a niche.',
    whenToUse:
      'When a company needs to state plainly how it intends to beat competitors, or when it seems to be trying everything at once.',
    questions: [
      'Does the firm have a structural cost advantage across the market?',
      'What does it offer that buyers pay a premium for?',
      'Does it serve a narrow segment better than broad competitors can?',
      'Is it stuck between positions with neither the lowest cost nor a clear difference?',
    ],
    queryHints: ['cost leadership', 'product differentiation', 'niche market focus', 'price premium'],
    sections: ['Cost leadership', 'Broad differentiation', 'Niche focus', 'Stuck in the middle risk'],
  },
  {
    id: 'business-model-canvas',
    name: 'Business Model Canvas',
    category: 'strategy',
    description: 'Maps how an organization creates, delivers and captures value on nine building blocks.',
    whenToUse:
      'To describe or compare business models on one page, or to see what must change when a company changes how it earns money.',
    questions: [
      'Which customers does it serve, and with what value proposition?',
      'Through which channels and relationships does it reach them?',
      'How does it earn revenue, and what does it cost to run?',
      'Which resources, activities and partners does the model depend on?',
    ],
    queryHints: ['business model', 'revenue model', 'key partners', 'cost structure', 'distribution channels'],
    sections: [
      'Customer segments and value propositions',
      'Channels and relationships',
      'Revenue streams',
      'Key resources and activities',
      'Key partners',
      'Cost structure',
    ],
  },
  {
    id: 'competitive-moats',
    name: 'Competitive Moats',
    category: 'strategy',
    description: 'The durable structural advantages that protect a business from competitors over time.',
    whenToUse:
      'When judging whether a company can keep high returns for years, such as before an investment or against a new entrant.',
    questions: [
      'Does the product become more valuable as more people use it?',
      'How costly is it for customers to switch away?',
      'Which patents, licences or brands keep rivals out?',
      'Does the company have a lasting cost advantage or a market only big enough for one player?',
      'What is wearing the moat down?',
    ],
    queryHints: ['switching costs', 'network effects', 'brand patents licences', 'cost advantage', 'market dominance'],
    sections: [
      'Network effects',
      'Switching costs',
      'Intangible assets',
      'Cost advantages',
      'Efficient scale',
      'Moat erosion',
    ],
  },
  {
    id: 'scenario-planning',
    name: 'Scenario Planning',
    category: 'strategy',
    description: 'Builds several plausible futures from the most uncertain forces and tests strategy against each.',
    whenToUse:
      'When the future of a market depends on a few big unknowns and a single forecast would give false confidence.',
    questions: [
      'Which forces will shape the domain over the planning horizon?',
      'Which of them are both highly uncertain and highly consequential?',
      'What distinct, internally consistent futures do those uncertainties produce?',
      'Which signals would show which future is unfolding?',
      'Which moves pay off in most of the futures?',
    ],
    queryHints: ['future outlook', 'key uncertainties', 'long-term trends', 'forecasts scenarios'],
    sections: ['Driving forces', 'Critical uncertainties', 'Scenario narratives', 'Signposts to watch', 'Robust moves'],
  },
  {
    id: 'golden-circle',
    name: 'Golden Circle',
    category: 'strategy',
    description: 'Reads an organization from its purpose outward, to its approach and then its offering.',
    whenToUse:
      'When studying how a brand or organization explains itself, or why its message does or does not convince people.',
    questions: [
      'What purpose or belief does the organization say drives it?',
      'How does its way of working set it apart?',
      'What does it actually sell, and does that prove the purpose?',
    ],
    queryHints: ['company mission purpose', 'brand positioning', 'corporate values', 'product offering'],
    sections: ['Purpose and belief (why)', 'Distinctive approach (how)', 'Offering and proof (what)'],
  },
]
