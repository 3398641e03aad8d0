"""What events announce for other apps to act on (the ratings app rates and re-rates from these).

Sent inside the service's transaction; receivers that queue work do it on commit.
"""

from django.dispatch import Signal

# A division's results were locked: `division`, `actor`.
division_finalised = Signal()

# A confirmed result was changed by a director: `game`, `actor`.
result_corrected = Signal()

# Play began in a division (its first round was paired): `division`, `actor`. A receiver may refuse it
# (a ServiceError rolls the pairing back): the event must have reached its date.
play_started = Signal()
