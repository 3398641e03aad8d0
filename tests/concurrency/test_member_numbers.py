"""Member numbers are allocated without races: many people joining at once never share a number."""

import threading

import pytest
from django.db import connection

from players import services
from players.models import Player

pytestmark = pytest.mark.postgres


def test_concurrent_sign_ups_get_distinct_member_numbers(postgres, transactional_db):
    threads, errors = 12, []
    barrier = threading.Barrier(threads)

    def join(i: int) -> None:
        try:
            barrier.wait()
            for j in range(5):
                services.create_player(full_name=f"Racer {i}-{j}")
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    workers = [threading.Thread(target=join, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert errors == []
    numbers = list(Player.objects.values_list("member_number", flat=True))
    assert len(numbers) == 60 and len(set(numbers)) == 60
    assert max(numbers) - min(numbers) == 59  # no gaps either
