"""The JSON API: the agent's and the owner's HTTP endpoints, with their OpenAPI documents."""
