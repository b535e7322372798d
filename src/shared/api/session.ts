import { z } from 'zod'

/** What `POST /console/api/login` and `GET /console/api/session` answer. */
export const SessionSchema = z.object({
  authToken: z.string().meta({ description: 'The auth token, for the authToken header of the other routes' }),
  accountId: z.string(),
})
export type Session = z.output<typeof SessionSchema>
