"""Team mode's OpenID provider, as the portal's client sees it: discovery, the authorization
URL (state, nonce, PKCE S256), the code exchange (`client_secret_basic`) and the ID token's
verification against the issuer's keys.

The flow is authlib's (`AsyncOAuth2Client`, over httpx2); the ID token is checked by joserfc
(authlib's own JOSE library: `authlib.jose` is deprecated in its favour): the signature with
the issuer's JWKS, then `iss`, `aud`, `exp`, `iat`, `sub` and `nonce`. Nothing here checks a
JWT by hand. The discovery document and the keys are fetched once and kept; a token signed
with a key id the kept set lacks fetches the JWKS again (the provider rotated its keys).

Owns no state of a sign-in (`team_sign_in.py` keeps that) and decides nothing about who may
come in: it answers the provider's verified claims, or raises `ProviderUnavailable` (the
provider cannot be reached or answers nonsense) or `SignInRejected` (the provider, or its
token, said no).
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx2
from authlib.integrations.httpx_client import AsyncOAuth2Client, OAuthError
from joserfc import jws, jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet

from choice.web.security.sign_in_errors import ProviderUnavailable, SignInRejected

SCOPE = "openid email profile"
TIMEOUT_SECONDS = 10.0
"""Each request to the provider; past it the provider counts as down."""
LEEWAY_SECONDS = 60
"""Clock skew allowed between the portal and the provider (`exp`, `iat`)."""
SIGNING_ALGORITHMS = ("RS256", "PS256", "ES256", "EdDSA")
"""ID-token algorithms accepted (asymmetric only: the client secret never verifies one)."""


class OidcClient:
    def __init__(self, issuer: str, client_id: str, client_secret: str,
                 redirect_uri: str) -> None:
        self.issuer = issuer.rstrip("/")
        self.client_id = client_id
        self._client_secret = client_secret
        self.redirect_uri = redirect_uri
        self._metadata: dict[str, Any] | None = None
        self._keys: KeySet | None = None
        self._lock = asyncio.Lock()

    def _oauth(self) -> AsyncOAuth2Client:
        return AsyncOAuth2Client(
            client_id=self.client_id, client_secret=self._client_secret,
            token_endpoint_auth_method="client_secret_basic", scope=SCOPE,
            redirect_uri=self.redirect_uri, code_challenge_method="S256",
            timeout=TIMEOUT_SECONDS)

    async def _get_json(self, url: str) -> dict[str, Any]:
        try:
            async with httpx2.AsyncClient(timeout=TIMEOUT_SECONDS) as http:
                reply = await http.get(url)
                reply.raise_for_status()
                found = reply.json()
        except (httpx2.HTTPError, ValueError) as exc:
            raise ProviderUnavailable(f"{url}: {exc}") from exc
        if not isinstance(found, dict):
            raise ProviderUnavailable(f"{url}: not a JSON object")
        return found

    async def metadata(self) -> dict[str, Any]:
        """The provider's discovery document (fetched once, then kept)."""
        async with self._lock:
            if self._metadata is None:
                found = await self._get_json(
                    f"{self.issuer}/.well-known/openid-configuration")
                needed = ("issuer", "authorization_endpoint", "token_endpoint", "jwks_uri")
                if any(not isinstance(found.get(name), str) for name in needed):
                    raise ProviderUnavailable("the discovery document lacks " + ", ".join(
                        name for name in needed if not isinstance(found.get(name), str)))
                if found["issuer"].rstrip("/") != self.issuer:
                    raise ProviderUnavailable(f"the discovery document names the issuer "
                                              f"{found['issuer']!r}, not {self.issuer!r}")
                self._metadata = found
            return self._metadata

    async def authorization_url(self, state: str, nonce: str, code_verifier: str) -> str:
        """Where to send the browser: response_type=code, the redirect URI, the scope, the
        state, the nonce and the S256 challenge of `code_verifier`."""
        endpoint = (await self.metadata())["authorization_endpoint"]
        async with self._oauth() as oauth:
            url, _state = oauth.create_authorization_url(
                endpoint, state=state, code_verifier=code_verifier, nonce=nonce)
        return str(url)

    async def verified_claims(self, code: str, code_verifier: str, nonce: str) -> dict[str, Any]:
        """Exchange the code and verify the ID token it brings; its claims."""
        endpoint = (await self.metadata())["token_endpoint"]
        try:
            async with self._oauth() as oauth:
                token = await oauth.fetch_token(endpoint, grant_type="authorization_code",
                                                code=code, code_verifier=code_verifier)
        except OAuthError as exc:
            raise SignInRejected(f"the provider refused the code: {exc}") from exc
        except (httpx2.HTTPError, ValueError) as exc:
            raise ProviderUnavailable(f"{endpoint}: {exc}") from exc
        id_token = token.get("id_token")
        if not isinstance(id_token, str):
            raise SignInRejected("the provider's token response has no id_token")
        return await self._verify(id_token, nonce)

    async def _verify(self, id_token: str, nonce: str) -> dict[str, Any]:
        try:
            kid = jws.extract_compact(id_token.encode()).headers().get("kid")
        except (JoseError, ValueError) as exc:
            raise SignInRejected(f"the ID token is not a JWS: {exc}") from exc
        keys = await self._key_set(kid)
        issuer = (await self.metadata())["issuer"]  # as the provider spells it
        try:
            decoded = jwt.decode(id_token, keys, algorithms=list(SIGNING_ALGORITHMS))
            jwt.JWTClaimsRegistry(
                leeway=LEEWAY_SECONDS,
                iss={"essential": True, "value": issuer},
                aud={"essential": True, "value": self.client_id},
                sub={"essential": True}, exp={"essential": True}, iat={"essential": True},
                nonce={"essential": True, "value": nonce},
            ).validate(decoded.claims)
        except (JoseError, ValueError) as exc:
            raise SignInRejected(f"the ID token did not verify: {exc}") from exc
        return dict(decoded.claims)

    async def _key_set(self, kid: str | None) -> KeySet:
        """The issuer's keys; fetched again when they lack `kid` (a rotation)."""
        async with self._lock:
            known = self._keys
        if known is not None and (kid is None or any(key.kid == kid for key in known)):
            return known
        jwks_uri = (await self.metadata())["jwks_uri"]
        found = await self._get_json(jwks_uri)
        try:
            keys = KeySet.import_key_set(found)  # type: ignore[arg-type]
        except (JoseError, ValueError, KeyError, TypeError) as exc:
            raise ProviderUnavailable(f"{jwks_uri}: not a JWK set: {exc}") from exc
        async with self._lock:
            self._keys = keys
        return keys
