"""The JSON API under `/api` (and `/healthz`): the agent's, the owner's and a participant's
HTTP endpoints, with their OpenAPI documents; `GET /api/stream` too, the agents' server-sent
events (an `/api` route behind the bearer token, documented like the rest).

Must not import `pages` or `live`: what they share with this package lives in `views` or
`security`.
"""
