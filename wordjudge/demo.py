"""The demo's word list: a few hundred common English words written for the demo (demo_words.txt), uploaded
through the word judge's own upload service under each lexicon name the demo events give, so a newcomer can
try the judge after `make run`. It is not a tournament lexicon: a real association uploads its licensed list
(which replaces this one under the same name)."""

from pathlib import Path

from events.models import Event
from players.models import User

from . import services

WORDS = Path(__file__).with_name("demo_words.txt")
DEMO_NOTE = "a demo list of a few hundred common words, not a tournament lexicon"


def load(stdout) -> None:
    staff = User.objects.filter(email="staff@example.org").first()
    # The file's comment lines say what it is; the upload takes words only.
    data = "\n".join(line for line in WORDS.read_text().splitlines() if not line.startswith("#")).encode()
    names = sorted({n.strip() for n in Event.objects.values_list("lexicon", flat=True) if n.strip()} or {"CSW"})
    for name in names:
        lexicon = services.import_lexicon(staff, name, data)
        stdout.write(f"Word judge: {lexicon.name} holds {lexicon.word_count} words ({DEMO_NOTE}).")
