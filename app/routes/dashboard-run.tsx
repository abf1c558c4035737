import { redirect } from 'react-router'

// Placeholder until the run page lands: the dashboard lists runs.
export function loader() {
  return redirect('/dashboard')
}
