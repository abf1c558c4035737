// A report's summary opens with a "### What changed since <date>" block (server/research/report.ts).
// Surfaces that show the delta's structured lists in its place (the run page, Slack and GitHub)
// take the block out of the summary, so what changed is shown once.

const CHANGES_HEADING = /^#{2,3}[ \t]+What changed since\b/

/** The summary without its what-changed block; a summary without one (a baseline, an old report) is unchanged. */
export function summaryWithoutChanges(summary: string): string {
  return summary
    .split('\n\n')
    .filter((block) => !CHANGES_HEADING.test(block))
    .join('\n\n')
}
