"""The API's authentication classes (a module of their own: DRF imports them while loading its views, so they
import nothing that imports those)."""

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

from clubsite.kit.prepared import Prepared

# Every request with a token reads it, with its user: compiled once per connection.
TOKEN_BY_KEY = Prepared(lambda key: Token.objects.select_related("user").filter(key=key), str)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication (the same header, errors and result), its query prepared."""

    def authenticate_credentials(self, key):
        try:
            token = TOKEN_BY_KEY.get(key)
        except Token.DoesNotExist:
            raise AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)
