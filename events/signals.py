"""What registration and play announce for other apps to act on (the event's lifecycle follows play; the ratings
app rates, re-rates and refreshes the live ratings from these).

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

# What the division's confirmed results count changed (a confirmation, a director's entry or correction, a forfeit,
# a round's fast entry, sent once for the round): `division`. The ratings app works the live ratings out again.
results_changed = Signal()
