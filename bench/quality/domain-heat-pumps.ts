// Heat pumps: sales, subsidies, makers and building rules (fictional companies, invented figures).
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

export const heatPumps: Domain = {
  key: 'heat-pumps',
  topic: 'heat pumps',
  sites: [
    'heatingtoday.example',
    'warmhome.example',
    'hvac-journal.example',
    'buildings-brief.example',
    'renovate.example',
  ],
  boilerplate: [
    'This story is part of our series on how Europe heats its homes.',
    'Subscribe to our newsletter for the week in heating and buildings.',
    'A spokesperson for the manufacturer declined to comment.',
    'Installers say customers still have many questions about running costs.',
    'Consumer groups have asked for clearer advice for homeowners.',
    'This article was corrected after publication.',
    'Our coverage of home heating is supported by our readers.',
    'Further announcements are expected at the trade fair in the spring.',
    'Send tips about the heating industry to our newsroom.',
  ],
  facts: [
    figure('europe-sales-2025', [2.4, 3.4], 0.1, 'any', (v) => [
      `Europe sold ${n(v)} million heat pumps in 2025, HeatWatch Europe reported.`,
      `HeatWatch Europe counted ${n(v)} million heat pumps sold across Europe in 2025.`,
      `In 2025, ${n(v)} million heat pumps were sold in Europe, according to HeatWatch Europe.`,
    ]),
    figure('german-subsidy', [6000, 9000], 100, 'any', (v) => [
      `Germany pays a subsidy of up to €${n(v)} for each heat pump installation.`,
      `Homeowners in Germany can claim up to ${n(v)} euros in subsidy for a heat pump.`,
      `The German heat pump subsidy is capped at €${n(v)} for a single home.`,
    ]),
    figure('uk-install-price', [10000, 14000], 100, 'down', (v) => [
      `An air-source heat pump costs £${n(v)} to install in the UK on average.`,
      `The average installed price of an air-source heat pump in the UK is ${n(v)} pounds.`,
      `British households pay about £${n(v)} to have an air-source heat pump installed.`,
    ]),
    figure('aerotherm-cop', [3.8, 5], 0.1, 'up', (v) => [
      `Aerotherm's new R290 heat pump reaches a seasonal coefficient of performance of ${n(v)}.`,
      `The seasonal COP of Aerotherm's R290 model is ${n(v)}.`,
      `Aerotherm rates its R290 heat pump at a seasonal COP of ${n(v)}.`,
    ]),
    figure('france-new-homes', [55, 75], 1, 'up', (v) => [
      `Heat pumps were installed in ${v}% of new homes in France last year.`,
      `Last year ${v} percent of new French homes were fitted with a heat pump.`,
      `In France, ${v}% of homes built last year came with a heat pump.`,
    ]),
    figure('aerotherm-output', [150000, 300000], 5000, 'up', (v) => [
      `Aerotherm's factory in Wroclaw makes ${n(v)} heat pumps a year.`,
      `The Wroclaw plant of Aerotherm turns out ${n(v)} heat pumps a year.`,
      `Each year ${n(v)} heat pumps roll off Aerotherm's line in Wroclaw.`,
    ]),
    figure('uk-installers-trained', [9000, 15000], 100, 'up', (v) => [
      `The UK trained ${n(v)} installers to fit heat pumps last year.`,
      `Last year ${n(v)} installers completed heat pump training in the UK.`,
      `Heat pump training courses in the UK qualified ${plain(v)} installers last year.`,
    ]),
    figure('poland-growth', [12, 30], 1, 'any', (v) => [
      `Heat pump sales in Poland rose ${v}% in the first half of the year.`,
      `Poland's heat pump market grew by ${v} percent in the first half of the year.`,
      `Sales of heat pumps in Poland were up ${v}% in the first six months of the year.`,
    ]),
    figure('aerotherm-noise', [38, 50], 1, 'down', (v) => [
      `Aerotherm's outdoor unit runs at ${v} decibels in night mode.`,
      `In night mode the Aerotherm outdoor unit produces ${v} decibels of noise.`,
      `The outdoor unit from Aerotherm is rated at ${v} decibels when running in night mode.`,
    ]),
    figure('propane-price', [9, 16], 0.1, 'any', (v) => [
      `Propane refrigerant for heat pumps costs €${n(v)} per kilogram in Europe.`,
      `European installers pay ${n(v)} euros per kg for propane refrigerant.`,
      `The price of propane refrigerant in Europe is €${n(v)} per kg.`,
    ]),
    figure('german-price-ratio', [2.2, 3.2], 0.1, 'any', (v) => [
      `Electricity in Germany costs ${n(v)} times as much as gas for the same amount of energy.`,
      `For the same amount of energy, German households pay ${n(v)} times more for electricity than for gas.`,
      `German electricity is ${n(v)} times the price of gas for the same energy.`,
    ]),
    figure('dutch-wait', [6, 14], 1, 'down', (v) => [
      `Homeowners in the Netherlands wait ${v} weeks for a heat pump installation.`,
      `A heat pump installation in the Netherlands now takes ${v} weeks to schedule.`,
      `Dutch installers have a waiting list of ${v} weeks for heat pumps.`,
    ]),
    figure('aerotherm-share', [10, 18], 0.5, 'any', (v) => [
      `Aerotherm holds ${n(v)}% of the European heat pump market.`,
      `Aerotherm's share of Europe's heat pump market is ${n(v)} percent.`,
      `${n(v)}% of heat pumps sold in Europe are made by Aerotherm.`,
    ]),
    dated('dutch-boiler-ban', 'year', 2026, (w) => [
      `The Netherlands will ban new gas boilers from ${w.year}.`,
      `A Dutch ban on new gas boilers takes effect in ${w.year}.`,
      `From ${w.year} the Netherlands bans the installation of new gas boilers.`,
    ]),
    dated('aerotherm-valencia', 'quarter', 2026, (w) => [
      `Aerotherm's second factory, in Valencia, will open in ${quarterLong(w)}.`,
      `Aerotherm plans to open its Valencia factory in ${quarterShort(w)}.`,
      `The Valencia plant, Aerotherm's second, is due to start production in ${quarterLong(w)}.`,
    ]),
    dated('uk-scheme-end', 'month', 2027, (w) => [
      `The UK's Boiler Upgrade Scheme will run until ${monthYear(w)}.`,
      `Grants under the Boiler Upgrade Scheme are available until ${monthYear(w)}.`,
      `The British Boiler Upgrade Scheme is set to close in ${monthYear(w)}.`,
    ]),
    polar(
      'german-heating-law',
      [
        'The Bundestag approved the amended building energy law.',
        'German lawmakers voted to pass the amended building energy law.',
        'The amended building energy law was approved by the Bundestag.',
      ],
      [
        'The Bundestag rejected the amended building energy law.',
        'German lawmakers voted down the amended building energy law.',
        'The amended building energy law was rejected by the Bundestag.',
      ],
    ),
    polar(
      'aerotherm-texas',
      [
        'Aerotherm will build a heat pump plant in Texas.',
        `A Texas heat pump plant is part of Aerotherm's plans.`,
        'Aerotherm has decided to build a heat pump factory in Texas.',
      ],
      [
        'Aerotherm has scrapped its plan to build a heat pump plant in Texas.',
        'Aerotherm will not build a heat pump plant in Texas.',
        'Plans for an Aerotherm heat pump factory in Texas have been abandoned.',
      ],
    ),
    polar(
      'air-to-air-eligible',
      [
        'The Boiler Upgrade Scheme will be extended to cover air-to-air heat pumps.',
        'Air-to-air heat pumps will become eligible for the Boiler Upgrade Scheme.',
        'The government is extending the Boiler Upgrade Scheme to air-to-air heat pumps.',
      ],
      [
        'The Boiler Upgrade Scheme will not be extended to cover air-to-air heat pumps.',
        'Air-to-air heat pumps will remain ineligible for the Boiler Upgrade Scheme.',
        'The government has decided against extending the Boiler Upgrade Scheme to air-to-air heat pumps.',
      ],
    ),
    polar(
      'propane-fire-code',
      [
        'The updated fire code allows propane heat pumps in apartment buildings.',
        'Propane heat pumps are permitted in apartment buildings under the updated fire code.',
        'Under the updated fire code, apartment buildings may use propane heat pumps.',
      ],
      [
        'The updated fire code bans propane heat pumps in apartment buildings.',
        'Propane heat pumps are prohibited in apartment buildings under the updated fire code.',
        'Under the updated fire code, apartment buildings may not use propane heat pumps.',
      ],
    ),
  ],
}
