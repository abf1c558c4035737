import { redirect } from 'react-router'

// Placeholder until the trial page lands.
export function loader() {
  return redirect('/signup')
}
