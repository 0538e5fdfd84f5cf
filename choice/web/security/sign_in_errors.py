"""How a team-mode sign-in through the OpenID provider can fail, apart from the provider's
client itself (`oidc_client.py`, which raises them): so the pages that explain them, and a
local-mode portal, need not import the OpenID libraries."""


class ProviderUnavailable(Exception):
    """The provider could not be reached, or answered something that is not OpenID."""


class SignInRejected(Exception):
    """The provider refused the code, or its ID token did not verify."""
