import { index, type RouteConfig, route } from '@react-router/dev/routes'

export default [
  index('routes/home.tsx'),
  route('signup', 'routes/signup.tsx'),
  route('login', 'routes/login.tsx'),
  route('logout', 'routes/logout.tsx'),
  route('dashboard', 'routes/dashboard.tsx'),
  route('dashboard/runs/:runId', 'routes/dashboard-run.tsx'),
  route('dashboard/keys', 'routes/dashboard-keys.tsx'),
  route('dashboard/webhooks', 'routes/dashboard-webhooks.tsx'),
  route('dashboard/series', 'routes/dashboard-series.tsx'),
  route('dashboard/feeds', 'routes/dashboard-feeds.tsx'),
  route('dashboard/topics', 'routes/dashboard-topics.tsx'),
  route('dashboard/topics/compare', 'routes/dashboard-topics-compare.tsx'),
  route('dashboard/topics/:topicId', 'routes/dashboard-topic.tsx'),
  route('dashboard/topics/:topicId/export', 'routes/dashboard-topic-export.ts'),
  route('trial', 'routes/trial.tsx'),
  route('corpus/*', 'routes/corpus-document.tsx'),
] satisfies RouteConfig
