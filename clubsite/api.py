"""Shared pieces of the REST API."""

from rest_framework import serializers
from rest_framework.views import exception_handler as drf_exception_handler

from clubsite.errors import PermissionDenied, ServiceError


def service_error_response(error: ServiceError):
    """A ServiceError as a 400 (or 403) naming the field at fault."""
    from rest_framework import status
    from rest_framework.response import Response

    key = error.field or "detail"
    code = status.HTTP_403_FORBIDDEN if isinstance(error, PermissionDenied) else status.HTTP_400_BAD_REQUEST
    return Response({key: [error.message]} if error.field else {"detail": error.message}, status=code)


def exception_handler(exc, context):
    if isinstance(exc, ServiceError):
        return service_error_response(exc)
    return drf_exception_handler(exc, context)


class EmptySerializer(serializers.Serializer):
    pass
