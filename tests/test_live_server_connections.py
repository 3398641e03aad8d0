"""The live server the browser journeys use leaves no database connection behind a kept-alive socket."""

import http.client
import urllib.parse

import pytest
from django.db import connection


@pytest.mark.django_db(transaction=True)
def test_kept_alive_sockets_hold_no_database_connection(live_server, postgres):
    def others() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            return cursor.fetchone()[0]

    before = others()
    address = urllib.parse.urlsplit(live_server.url)
    sockets = [http.client.HTTPConnection(address.hostname, address.port, timeout=10) for _ in range(5)]
    try:
        for socket in sockets:
            for _ in range(2):  # the second request rides the same socket
                socket.request("GET", "/events/")
                response = socket.getresponse()
                response.read()
                assert response.status == 200 and response.getheader("Connection") != "close"
        # Five sockets are still open, each with its own server thread, and none keeps a connection.
        assert others() == before
    finally:
        for socket in sockets:
            socket.close()
