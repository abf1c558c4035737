import { redirect } from 'react-router'
import { signOut } from '#app/session.server.ts'
import type { Route } from './+types/logout'

export async function action(args: Route.ActionArgs) {
  return signOut(args)
}

// Logging out changes state, so it takes a POST (the button in the header); a visit just goes home.
export function loader() {
  return redirect('/')
}
