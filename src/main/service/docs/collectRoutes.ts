import type { FastifyInstance } from 'fastify'
import type { RouteDoc } from './routeDoc'

/** A route as Fastify registered it, with its documentation when it has some. */
export type CollectedRoute = { method: string; url: string; doc: RouteDoc | undefined }

/**
 * Every route registered on `app` from now on, in registration order (one entry per method), read by Fastify's
 * `onRoute` hook: the OpenAPI document is built from what the server really serves, never from a second list.
 * Call it before any route is registered; the array fills as routes are.
 */
export function collectRoutes(app: FastifyInstance): CollectedRoute[] {
  const routes: CollectedRoute[] = []
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    for (const method of methods) routes.push({ method, url: route.url, doc: route.config?.doc })
  })
  return routes
}
