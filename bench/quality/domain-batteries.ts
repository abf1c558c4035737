// Grid batteries: cell prices, factories, utilities and regulators (fictional companies, invented figures).
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

export const batteries: Domain = {
  key: 'batteries',
  topic: 'grid batteries',
  sites: ['storagewire.example', 'gridbeat.example', 'cellnews.example', 'energy-desk.example', 'volt-review.example'],
  boilerplate: [
    'This briefing is part of our weekly coverage of energy storage.',
    'Readers can sign up for the storage newsletter on our website.',
    'The company did not respond to a request for comment.',
    'Analysts say the market for grid batteries remains hard to read.',
    'More details are expected at the next investor day.',
    'This article has been updated with additional reporting.',
    'Our reporters cover batteries, grids and the companies that build them.',
    'Industry observers expect more announcements before the end of the year.',
    'Questions about this story can be sent to the storage desk.',
  ],
  facts: [
    figure('sodium-cell-price', [72, 95], 1, 'down', (v) => [
      `Sodium-ion cell prices fell to $${v}/kWh, according to the quarterly survey by Tidewater Analytics.`,
      `Tidewater Analytics' quarterly survey puts the average sodium-ion cell at $${v} per kWh.`,
      `The average sodium-ion cell now sells for ${v} dollars per kWh, Tidewater Analytics found in its quarterly survey.`,
      `In its quarterly survey, Tidewater Analytics priced sodium-ion cells at $${v}/kWh on average.`,
    ]),
    figure('kestrel-capacity', [18, 30], 1, 'up', (v) => [
      `Kestrel Energy's Nevada plant will have an annual capacity of ${v} GWh.`,
      `The Nevada factory of Kestrel Energy is designed to turn out ${v} GWh of cells a year.`,
      `Kestrel Energy plans to make ${v} gigawatt-hours of battery cells a year in Nevada.`,
    ]),
    figure('halden-budget', [2.1, 3.4], 0.1, 'up', (v) => [
      `Halden Batteri now puts the cost of its Mo i Rana gigafactory at $${n(v)} billion.`,
      `The Mo i Rana gigafactory is budgeted at ${n(v)} billion dollars, Halden Batteri said.`,
      `Building Halden Batteri's gigafactory in Mo i Rana will cost an estimated $${n(v)} billion.`,
    ]),
    figure('world-installs-2025', [150, 210], 1, 'any', (v) => [
      `Grid-scale battery installations worldwide reached ${v} GWh in 2025.`,
      `Utilities and developers installed ${v} GWh of grid batteries around the world in 2025.`,
      `In 2025 the world added ${v} gigawatt-hours of grid-scale battery storage.`,
    ]),
    figure('voltfjord-efficiency', [38, 52], 1, 'up', (v) => [
      `Voltfjord's iron-air battery achieves a round-trip efficiency of ${v}%.`,
      `The round-trip efficiency of the Voltfjord iron-air system is ${v} percent.`,
      `Voltfjord says its iron-air cells give back ${v}% of the energy put into them.`,
    ]),
    figure('lfp-share', [62, 80], 1, 'up', (v) => [
      `Lithium iron phosphate chemistry was chosen for ${v}% of new grid storage projects last year.`,
      `Last year ${v} percent of new grid storage projects used lithium iron phosphate cells.`,
      `The share of new grid projects built on lithium iron phosphate reached ${v}% last year.`,
    ]),
    figure('halden-staff', [900, 1600], 10, 'up', (v) => [
      `Halden Batteri employs ${n(v)} workers at its plant in Mo i Rana.`,
      `The Mo i Rana plant has ${n(v)} workers on its payroll, according to Halden Batteri.`,
      `Some ${plain(v)} workers now make cells for Halden Batteri in Mo i Rana.`,
    ]),
    figure('kestrel-cycle-life', [4000, 7000], 100, 'up', (v) => [
      `Kestrel Energy's sodium-ion cells are rated for ${n(v)} cycles.`,
      `The sodium-ion cell from Kestrel Energy lasts ${n(v)} cycles before its capacity fades.`,
      `Kestrel Energy rates its sodium-ion cells at ${n(v)} cycles.`,
    ]),
    figure('lithium-carbonate', [9000, 14000], 100, 'any', (v) => [
      `Lithium carbonate traded at $${n(v)} per tonne in China this month.`,
      `The spot price of lithium carbonate in China stood at ${n(v)} dollars per tonne this month.`,
      `Chinese lithium carbonate changed hands for $${n(v)} per tonne this month.`,
    ]),
    figure('us-duration', [2.5, 4.5], 0.1, 'up', (v) => [
      `New grid batteries in the United States can discharge for ${n(v)} hours on average.`,
      `The average duration of new American grid batteries has grown to ${n(v)} hours.`,
      `American grid batteries installed this year hold enough energy for ${n(v)} hours of output.`,
    ]),
    figure('california-fleet', [11, 16], 0.1, 'up', (v) => [
      `California's grid battery fleet has reached ${n(v)} GW of capacity.`,
      `California now has ${n(v)} gigawatts of batteries connected to its grid.`,
      `Batteries connected to the California grid add up to ${n(v)} GW.`,
    ]),
    figure('kestrel-density', [140, 175], 1, 'up', (v) => [
      `Kestrel Energy's sodium-ion cell stores ${v} Wh/kg.`,
      `The energy density of the Kestrel Energy sodium-ion cell is ${v} Wh per kilogram.`,
      `Kestrel Energy says its sodium-ion cell reaches ${v} Wh/kg.`,
    ]),
    figure('pacific-order', [400, 900], 10, 'any', (v) => [
      `Pacific Grid has ordered ${v} MWh of iron-air batteries from Voltfjord.`,
      `Voltfjord will supply ${v} MWh of iron-air storage to Pacific Grid.`,
      `The Voltfjord order placed by Pacific Grid covers ${v} megawatt-hours of iron-air batteries.`,
    ]),
    dated('halden-production', 'quarter', 2027, (w) => [
      `Halden Batteri expects to start cell production in Mo i Rana in ${quarterLong(w)}.`,
      `Cell production at the Mo i Rana gigafactory is scheduled to begin in ${quarterShort(w)}.`,
      `The first cells will leave Halden Batteri's Mo i Rana plant in ${quarterLong(w)}.`,
    ]),
    dated('voltfjord-pilot', 'month', 2026, (w) => [
      `Voltfjord will commission its iron-air pilot plant in ${monthYear(w)}.`,
      `The iron-air pilot plant of Voltfjord is due to be commissioned in ${monthYear(w)}.`,
      `Commissioning of Voltfjord's iron-air pilot plant is planned for ${monthYear(w)}.`,
    ]),
    dated('german-grid-code', 'year', 2027, (w) => [
      `The revised grid code for storage operators in Germany takes effect in ${w.year}.`,
      `German storage operators must follow the revised grid code from ${w.year}.`,
      `Germany's revised grid code for battery storage will apply from ${w.year}.`,
    ]),
    polar(
      'kestrel-permit',
      [
        `Nevada regulators approved the water permit for Kestrel Energy's plant.`,
        `Kestrel Energy's Nevada plant received approval for its water permit from state regulators.`,
        `State regulators in Nevada granted Kestrel Energy the water permit its plant needs.`,
      ],
      [
        `Nevada regulators rejected the water permit for Kestrel Energy's plant.`,
        `State regulators in Nevada denied Kestrel Energy the water permit its plant needs.`,
        `Kestrel Energy's Nevada plant was refused a water permit by state regulators.`,
      ],
    ),
    polar(
      'eu-tariff',
      [
        'The European Commission will impose tariffs on imported sodium-ion cells.',
        'Imported sodium-ion cells will face tariffs from the European Commission.',
        'Tariffs on sodium-ion cells imported into the EU are coming, the European Commission said.',
      ],
      [
        'The European Commission will not impose tariffs on imported sodium-ion cells.',
        'Imported sodium-ion cells will not face tariffs from the European Commission.',
        'The European Commission has ruled out tariffs on imported sodium-ion cells.',
      ],
    ),
    polar(
      'voltfjord-certification',
      [
        `Voltfjord's iron-air battery passed its fire safety certification.`,
        'The iron-air battery from Voltfjord has been certified as fire safe.',
        `Fire safety certifiers cleared Voltfjord's iron-air battery.`,
      ],
      [
        `Voltfjord's iron-air battery failed its fire safety certification.`,
        'The iron-air battery from Voltfjord has not been certified as fire safe.',
        `Fire safety certifiers did not clear Voltfjord's iron-air battery.`,
      ],
    ),
    polar(
      'coyote-flats-contract',
      [
        'Pacific Grid signed a long-term contract to buy power from the Coyote Flats battery.',
        'The Coyote Flats battery has a long-term contract with Pacific Grid.',
        'Pacific Grid agreed to a long-term deal for the output of the Coyote Flats battery.',
      ],
      [
        'Pacific Grid cancelled its long-term contract with the Coyote Flats battery.',
        'The long-term deal between Pacific Grid and the Coyote Flats battery has been terminated.',
        'Pacific Grid walked away from its long-term contract with the Coyote Flats battery.',
      ],
    ),
  ],
}
