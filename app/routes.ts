import { index, type RouteConfig, route } from '@react-router/dev/routes'

export default [
  index('routes/home.tsx'),
  route('signup', 'routes/signup.tsx'),
  route('login', 'routes/login.tsx'),
  route('logout', 'routes/logout.tsx'),
  route('dashboard', 'routes/dashboard.tsx'),
  route('dashboard/runs/:runId', 'routes/dashboard-run.tsx'),
  route('dashboard/keys', 'routes/dashboard-keys.tsx'),
  route('trial', 'routes/trial.tsx'),
] satisfies RouteConfig
