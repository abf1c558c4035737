// The button a topic's or a recurring brief's page shows: makes a private Atom feed of it, whose
// address /dashboard/feeds then shows once.
import { Form } from 'react-router'

export function MakeFeedButton({ subject }: { subject: { topicId: string } | { seriesId: string } }) {
  const [name, value] = 'topicId' in subject ? ['topicId', subject.topicId] : ['seriesId', subject.seriesId]
  return (
    <Form method="post" action="/dashboard/feeds">
      <input type="hidden" name="intent" value="create" />
      <input type="hidden" name={name} value={value} />
      <button
        type="submit"
        className="w-full rounded-md border border-slate-300 bg-white px-4 py-2 text-center font-medium text-slate-800 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700 sm:w-auto"
      >
        Atom feed
      </button>
    </Form>
  )
}
