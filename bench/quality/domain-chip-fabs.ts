// Chip fabs: investments, yields, subsidies and permits (fictional companies, invented figures).
import {
  type Domain,
  dated,
  figure,
  monthYear,
  n,
  plain,
  polar,
  quarterLong,
  quarterShort,
} from '#bench/quality/catalogue.ts'

export const chipFabs: Domain = {
  key: 'chip-fabs',
  topic: 'chip fabs',
  sites: [
    'foundry-watch.example',
    'wafertimes.example',
    'semi-ledger.example',
    'fabreport.example',
    'silicon-desk.example',
  ],
  boilerplate: [
    'This report is part of our coverage of the semiconductor supply chain.',
    'Sign up for our chip industry newsletter to get these stories first.',
    'Meridian declined to comment on the figures.',
    'Analysts caution that fab schedules often slip.',
    'Investors will be watching the next earnings call closely.',
    'This story has been updated with comments from the county.',
    'Our semiconductor desk tracks fab projects around the world.',
    'More detail is expected when the company presents its roadmap.',
    'Readers can reach the chip desk with tips and corrections.',
  ],
  facts: [
    figure('ohio-investment', [18, 30], 0.5, 'up', (v) => [
      `Meridian Semiconductor will invest $${n(v)} billion in its Ohio fab.`,
      `The Ohio fab of Meridian Semiconductor carries a price tag of ${n(v)} billion dollars.`,
      `Meridian Semiconductor's investment in the Ohio fab has reached $${n(v)} billion.`,
    ]),
    figure('chips-grant', [1.5, 3.5], 0.1, 'any', (v) => [
      `The Commerce Department awarded Meridian Semiconductor $${n(v)} billion in CHIPS Act grants.`,
      `Meridian Semiconductor is receiving ${n(v)} billion dollars in CHIPS Act grants from the Commerce Department.`,
      `CHIPS Act grants worth $${n(v)} billion will go to Meridian Semiconductor, the Commerce Department said.`,
    ]),
    figure('yield-2nm', [45, 75], 1, 'up', (v) => [
      `Yields on Meridian's 2 nm pilot line have reached ${v}%.`,
      `Meridian's 2 nm pilot line is producing good dies at a yield of ${v} percent.`,
      `The 2 nm pilot line at Meridian now yields ${v}% good chips.`,
    ]),
    figure('ohio-wafer-starts', [20000, 40000], 1000, 'up', (v) => [
      `The Ohio fab will process ${n(v)} wafers a month at full capacity.`,
      `At full capacity, Meridian's Ohio fab is designed for ${n(v)} wafers a month.`,
      `Meridian plans to run ${plain(v)} wafers a month through the Ohio fab once it is fully ramped.`,
    ]),
    figure('ohio-jobs', [2000, 3500], 50, 'any', (v) => [
      `The Ohio fab will create ${n(v)} jobs, Meridian Semiconductor said.`,
      `Meridian Semiconductor's Ohio fab is expected to bring ${n(v)} jobs to the state.`,
      `About ${n(v)} jobs will come with Meridian's fab in Ohio.`,
    ]),
    figure('ohio-water', [12, 20], 0.5, 'any', (v) => [
      `The Ohio fab will use ${n(v)} million litres of water a day.`,
      `Meridian's Ohio fab needs ${n(v)} million litres of water each day.`,
      `Each day the Ohio fab will draw ${n(v)} million litres of water.`,
    ]),
    figure('taiwan-share', [60, 72], 1, 'any', (v) => [
      `Taiwan accounts for ${v}% of the world's advanced logic chip capacity.`,
      `${v} percent of advanced logic chip capacity worldwide sits in Taiwan.`,
      `Taiwan's share of global advanced logic capacity stands at ${v}%.`,
    ]),
    figure('wafer-price-3nm', [16000, 22000], 500, 'up', (v) => [
      `A 3 nm wafer from Meridian costs $${n(v)}.`,
      `Meridian charges ${n(v)} dollars for a 3 nm wafer.`,
      `Customers pay Meridian $${n(v)} for each 3 nm wafer.`,
    ]),
    figure('euv-scanners', [12, 30], 1, 'up', (v) => [
      `Meridian has taken delivery of ${v} EUV scanners for its fabs.`,
      `The fabs of Meridian now run ${v} EUV scanners.`,
      `Across its fabs, Meridian operates ${v} EUV scanners.`,
    ]),
    figure('china-mature-utilization', [65, 85], 1, 'any', (v) => [
      `Mature-node fabs in China ran at ${v}% utilization last quarter.`,
      `Utilization at Chinese mature-node fabs was ${v} percent last quarter.`,
      `Chinese fabs making mature-node chips used ${v}% of their capacity last quarter.`,
    ]),
    figure('dresden-power', [150, 260], 5, 'up', (v) => [
      `Meridian's Dresden fab will draw ${v} MW from the grid.`,
      `The Dresden fab of Meridian needs ${v} megawatts of power.`,
      `Power demand at Meridian's Dresden fab is put at ${v} MW.`,
    ]),
    figure('ohio-construction', [4000, 8000], 100, 'up', (v) => [
      `${n(v)} construction workers are on site at the Ohio fab.`,
      `The Ohio fab site employs ${n(v)} construction workers.`,
      `Meridian has ${plain(v)} construction workers building its Ohio fab.`,
    ]),
    figure('foundry-revenue', [6, 9], 0.1, 'any', (v) => [
      `Meridian's foundry business reported quarterly revenue of $${n(v)} billion.`,
      `Quarterly revenue at Meridian's foundry arm came to ${n(v)} billion dollars.`,
      `The foundry unit of Meridian took in $${n(v)} billion in the quarter.`,
    ]),
    dated('ohio-production', 'year', 2027, (w) => [
      `Meridian expects the Ohio fab to start production in ${w.year}.`,
      `Production at the Ohio fab is scheduled to begin in ${w.year}.`,
      `The first chips from Meridian's Ohio fab are due in ${w.year}.`,
    ]),
    dated('dresden-groundbreaking', 'month', 2026, (w) => [
      `Construction of Meridian's Dresden fab will begin in ${monthYear(w)}.`,
      `Meridian will break ground on its Dresden fab in ${monthYear(w)}.`,
      `Groundbreaking for the Dresden fab of Meridian is planned for ${monthYear(w)}.`,
    ]),
    dated('mass-production-2nm', 'quarter', 2026, (w) => [
      `Meridian will begin mass production of 2 nm chips in ${quarterLong(w)}.`,
      `Mass production on Meridian's 2 nm process is set for ${quarterShort(w)}.`,
      `Meridian's 2 nm chips will enter mass production in ${quarterLong(w)}.`,
    ]),
    polar(
      'arizona-rezoning',
      [
        `The Maricopa County board approved the rezoning for Meridian's Arizona expansion.`,
        `Meridian's Arizona expansion won rezoning approval from the Maricopa County board.`,
        'The rezoning Meridian needs for its Arizona expansion was approved by the Maricopa County board.',
      ],
      [
        `The Maricopa County board rejected the rezoning for Meridian's Arizona expansion.`,
        `Meridian's Arizona expansion was denied rezoning by the Maricopa County board.`,
        'The rezoning Meridian needs for its Arizona expansion was voted down by the Maricopa County board.',
      ],
    ),
    polar(
      'euv-export-license',
      [
        `The Dutch government granted an export license for EUV scanners bound for Meridian's Singapore fab.`,
        `EUV scanners can be shipped to Meridian's Singapore fab under a license the Dutch government granted.`,
        `Meridian's Singapore fab received a Dutch export license for EUV scanners.`,
      ],
      [
        `The Dutch government denied an export license for EUV scanners bound for Meridian's Singapore fab.`,
        `EUV scanners cannot be shipped to Meridian's Singapore fab after the Dutch government refused a license.`,
        `Meridian's Singapore fab was refused a Dutch export license for EUV scanners.`,
      ],
    ),
    polar(
      'dresden-opening',
      [
        `Meridian's Dresden fab will open in 2027.`,
        'The Dresden fab of Meridian is on track to open in 2027.',
        'Meridian still plans to open its Dresden fab in 2027.',
      ],
      [
        `Meridian's Dresden fab will not open in 2027.`,
        'The Dresden fab of Meridian is no longer on track to open in 2027.',
        'Meridian has dropped its plan to open the Dresden fab in 2027.',
      ],
    ),
    polar(
      'aurora-supply',
      [
        'Meridian signed a deal to supply chips to Aurora Motors.',
        'Aurora Motors will buy chips from Meridian under a new supply deal.',
        'A supply agreement makes Meridian a chip supplier to Aurora Motors.',
      ],
      [
        'Aurora Motors walked away from its chip supply deal with Meridian.',
        'Meridian will no longer supply chips to Aurora Motors.',
        'The chip supply deal between Meridian and Aurora Motors has collapsed.',
      ],
    ),
  ],
}
