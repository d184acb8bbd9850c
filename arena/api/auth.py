"""``Authorization: Token <key>``: the hashed API keys of the API keys page (arena.models.ApiKey) and, for
clients that hold one, DRF's stored tokens (rest_framework.authtoken), which keep working."""

from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from arena.services.apikeys import PREFIX, apikey_authenticate


class ApiKeyAuthentication(TokenAuthentication):
    keyword = "Token"

    def authenticate_credentials(self, key):
        if key.startswith(PREFIX):
            api_key = apikey_authenticate(key=key)
            if api_key is None:
                raise exceptions.AuthenticationFailed("Invalid token.")
            return api_key.user, api_key
        return super().authenticate_credentials(key)  # a DRF token (40 hex digits)
