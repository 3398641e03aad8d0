"""The API's authentication classes (a module of their own: DRF imports them while loading its views, so they
import nothing that imports those)."""

from django.conf import settings
from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _
from rest_framework import authentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

from clubsite.kit.errors import ServiceError
from clubsite.kit.prepared import Prepared

# Every request with a token reads it, with its user: compiled once per connection.
TOKEN_BY_KEY = Prepared(lambda key: Token.objects.select_related("user").filter(key=key), str)


def access_policy():
    """settings.ACCESS_POLICY: a function of an account that raises a ServiceError when it may not get in (the rule
    the log-in page applies too), named by its path so that the toolkit imports no app."""
    return import_string(settings.ACCESS_POLICY)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication (the same header and result), its query prepared. A token works only while its
    account may get in (ACCESS_POLICY: active, email address confirmed); a refused token is answered 401."""

    def authenticate_credentials(self, key):
        try:
            token = TOKEN_BY_KEY.get(key)
        except Token.DoesNotExist:
            raise AuthenticationFailed(_("Invalid token."))
        try:
            access_policy()(token.user)
        except ServiceError as error:
            raise AuthenticationFailed(error.message) from None
        return (token.user, token)

    def authenticate_header(self, request):
        """401 with `WWW-Authenticate: Token` for a request that sent credentials which were refused; one that sent
        none is answered 403, as the API always has."""
        if authentication.get_authorization_header(request):
            return super().authenticate_header(request)
        return None
