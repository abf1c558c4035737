// Finance lenses: whether the numbers behind a business, product or price hold up.
import type { Framework } from '#server/vocabulary/frameworks/types.ts'

export const financeFrameworks: Framework[] = [
  {
    id: 'unit-economics',
    name: 'Unit Economics',
    category: 'finance',
    description: 'Revenue and cost for one unit of the business, and whether each unit adds to profit.',
    whenToUse:
      'When growth is fast but profit is unclear, to check whether selling one more unit makes or loses money.',
    questions: [
      'What is the unit: an order, a customer, a ride, a seat?',
      'How much revenue does one unit bring, after discounts and refunds?',
      'What variable cost does one unit carry?',
      'How many units cover the fixed costs?',
      'Do the economics improve or worsen with scale?',
    ],
    queryHints: ['revenue per customer', 'contribution margin', 'cost per order', 'path to profitability'],
    sections: [
      'Revenue per unit',
      'Variable cost per unit',
      'Contribution margin',
      'Fixed cost coverage',
      'Scale effects',
    ],
  },
  {
    id: 'ltv-cac',
    name: 'LTV to CAC',
    category: 'finance',
    description: 'Compares what a customer is worth over their lifetime with what it cost to acquire them.',
    whenToUse:
      'For subscription and repeat-purchase businesses, to judge whether spending on growth creates or destroys value.',
    questions: [
      'What does it cost, all in, to win one customer?',
      'How much gross margin does a customer bring over their lifetime?',
      'What is the ratio, and how does it compare with peers?',
      'How many months until a customer pays back their acquisition cost?',
      'How do these differ by channel or segment?',
    ],
    queryHints: ['customer acquisition cost', 'customer lifetime value', 'payback period', 'marketing efficiency'],
    sections: [
      'Customer acquisition cost',
      'Customer lifetime value',
      'LTV to CAC ratio',
      'Payback period',
      'Channel differences',
    ],
  },
  {
    id: 'dupont',
    name: 'DuPont Analysis',
    category: 'finance',
    description: 'Breaks return on equity into profit margin, asset turnover and financial leverage.',
    whenToUse:
      'When comparing the returns of companies or years, to see whether they come from margins, efficiency or debt.',
    questions: [
      'How much profit does each unit of sales keep?',
      'How much revenue do the assets generate?',
      'How much of the return comes from borrowing?',
      'How does the mix compare with peers, and how has it changed?',
    ],
    queryHints: ['return on equity', 'net profit margin', 'asset turnover', 'debt leverage', 'annual report'],
    sections: ['Net profit margin', 'Asset turnover', 'Financial leverage', 'Return on equity', 'Peer comparison'],
  },
  {
    id: 'pricing-van-westendorp',
    name: 'Van Westendorp Price Sensitivity Meter',
    category: 'finance',
    description:
      'Finds an acceptable price range from the prices buyers call too cheap, a bargain, expensive and too expensive.',
    whenToUse:
      'When setting or testing a price for a new or changed offer and survey data on willingness to pay is available.',
    questions: [
      'At what price would buyers doubt the quality?',
      'At what price is it a good deal?',
      'At what price does it start to feel expensive?',
      'At what price would they not consider it?',
      'Which range and point do the answers suggest?',
    ],
    queryHints: ['willingness to pay', 'price sensitivity survey', 'pricing research', 'competitor prices'],
    sections: [
      'Too cheap to trust',
      'Bargain price',
      'Getting expensive',
      'Prohibitively expensive',
      'Acceptable price range',
      'Optimal price point',
    ],
  },
  {
    id: 'discounted-cash-flow',
    name: 'Discounted Cash Flow',
    category: 'finance',
    description: 'Values a business or project as the present value of the cash it is expected to generate.',
    whenToUse:
      'When valuing a company, an acquisition or a large investment, and the assumptions behind the value need to be explicit.',
    questions: [
      'What free cash flow is the business expected to produce, and on what growth and margin assumptions?',
      'What discount rate reflects its risk?',
      'What is it worth beyond the forecast period?',
      'Which assumptions move the value most?',
    ],
    queryHints: ['free cash flow', 'cost of capital', 'revenue forecast', 'valuation analyst estimates'],
    sections: ['Free cash flow forecast', 'Discount rate', 'Terminal value', 'Sensitivity analysis', 'Valuation range'],
  },
  {
    id: 'break-even-analysis',
    name: 'Break-Even Analysis',
    category: 'finance',
    description: 'The volume at which revenue covers fixed and variable costs.',
    whenToUse:
      'When launching a product, opening a site or changing a price, to see how much must be sold before it pays.',
    questions: [
      'What are the fixed costs?',
      'What is the price and variable cost per unit?',
      'How many units must be sold to break even, and by when?',
      'How far can sales fall before losses start?',
    ],
    queryHints: ['fixed costs', 'unit price and cost', 'sales volume', 'profitability threshold'],
    sections: ['Fixed costs', 'Variable costs and unit price', 'Break-even volume', 'Margin of safety'],
  },
  {
    id: 'rule-of-40',
    name: 'Rule of 40',
    category: 'finance',
    description: "A software company's revenue growth rate plus profit margin, judged against 40 percent.",
    whenToUse:
      'When comparing software or subscription companies that trade growth against profitability in different ways.',
    questions: [
      'How fast is revenue growing?',
      'What profit or cash-flow margin does the company earn?',
      'Does the sum reach 40 percent, and how has it moved?',
      'How do peers compare?',
    ],
    queryHints: ['revenue growth rate', 'EBITDA margin', 'free cash flow margin', 'SaaS benchmarks'],
    sections: ['Revenue growth rate', 'Profit margin', 'Combined score', 'Peer comparison'],
  },
  {
    id: 'total-cost-of-ownership',
    name: 'Total Cost of Ownership',
    category: 'finance',
    description: 'Every cost of buying, running and retiring an asset or system over its life, not just the price.',
    whenToUse:
      'When comparing vendors, build versus buy, or cloud versus on-premises, where the purchase price hides most of the cost.',
    questions: [
      'What does it cost to buy or license?',
      'What does it cost to run, maintain and support each year?',
      'What hidden costs come with training, integration and migration?',
      'What does it cost to retire or replace?',
      'How do the alternatives compare over the same period?',
    ],
    queryHints: ['total cost of ownership', 'operating costs', 'maintenance costs', 'migration costs'],
    sections: [
      'Acquisition costs',
      'Operating costs',
      'Hidden and transition costs',
      'End-of-life costs',
      'Comparison with alternatives',
    ],
  },
]
