import { Form } from 'react-router'
import { FormError, SelectField, SubmitButton } from '#app/components/form.tsx'

type TopicOption = { topicId: string; topic: string }

/** Two of the account's topics to compare (a GET, so a comparison has an address). */
export function TopicCompareForm({
  topics,
  a,
  b,
  error,
}: {
  topics: readonly TopicOption[]
  a?: string
  b?: string
  error?: string | null
}) {
  if (topics.length < 2) {
    return <p className="text-sm text-slate-600">Comparing needs two topics; research another topic first.</p>
  }
  const options = topics.map((topic) => ({ value: topic.topicId, label: topic.topic }))
  const known = (id: string | undefined) => (id && topics.some((topic) => topic.topicId === id) ? id : undefined)
  return (
    // A container query: one column in the topic list's sidebar, a row where the form is wide.
    <Form method="get" action="/dashboard/topics/compare" className="@container flex flex-col gap-4">
      <FormError message={error ?? undefined} />
      <div className="grid gap-4 @2xl:grid-cols-[1fr_1fr_auto] @2xl:items-end">
        <SelectField
          name="a"
          label="First topic"
          options={options}
          defaultValue={known(a) ?? options[0]?.value ?? ''}
        />
        <SelectField
          name="b"
          label="Second topic"
          options={options}
          defaultValue={known(b) ?? options[1]?.value ?? ''}
        />
        <div>
          <SubmitButton>Compare</SubmitButton>
        </div>
      </div>
    </Form>
  )
}
