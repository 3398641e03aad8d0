"""Demo rule books: the association's tournament rules in two versions, and its adoption of WESPA's rules. Written
for the demo in the site's own words after the association's published rules; not the rules' own text."""

from datetime import date

from players.models import Association, User

from . import services
from .models import RuleBook

ASSOCIATION_SLUG = "tournament-rules"
WESPA_SLUG = "wespa-rules"

RULES_2015 = """## Amendments and other rule books

Organisers may amend or add to these rules within reason, with the association's consent. They may instead
follow the WESPA tournament rules, and must say which rules an event follows when they announce it.

## Format

1. **Pairing.** King of the Hill (with or without repeats) or a round robin, alone or combined.
2. **Standings.** By wins, a tie counting as half a win, then by spread (the total margin of victory). Tied
   positions stay tied: there is no tie-break, and the organisers decide beforehand how tied players share prizes.
3. **Divisions.** When an event has divisions, the organisers say beforehand how entrants are placed in them,
   by the association's ratings where they apply.

## The game

1. Each player keeps score for both players, with a running total, and checks the opponent's plays and scores.
2. **Time.** Each player has 25 minutes on the clock for all their moves.
3. **Overtime.** A player who runs over loses 10 points for each minute or part of a minute over.
4. **Equipment.** Players may bring their own clock, board, tiles and racks; racks must let the opponent count
   the tiles. If the players disagree between equal equipment, the player going second chooses.
5. **End of a turn.** A turn ends when the player starts the opponent's clock; tiles on the board may not be
   moved after that.
6. **Blanks.** The player says which letter a blank stands for, and both players write it down.
7. **Exchanges.** A player may exchange tiles, scoring nothing, while at least 7 tiles are left in the bag.
8. **Challenges.** A player may hold (within 15 seconds) and then challenge any word of the opponent's last
   turn, written on a challenge slip for the word judges. A play challenged off is taken back. When every word
   challenged is acceptable, the player challenged scores **5 points** for each word challenged.
9. **Words.** Collins Scrabble Words (CSW15) is the word authority.
10. **The end.** The game ends when a player has played out with the bag empty, after six scoreless turns in a
    row, or when the director ends the round. Tiles left on a rack count against their holder; a player who
    played out gains twice the value of the opponent's tiles.
11. **Disputes.** What these rules do not foresee is decided by the tournament director, whose decision is final.
"""

RULES_2019 = RULES_2015.replace(
    "9. **Words.** Collins Scrabble Words (CSW15) is the word authority.",
    "9. **Words.** Collins Scrabble Words 2019 (CSW19) is the word authority. Organisers may use a computer "
    "adjudicator, and answer for its word list.",
).replace(
    "3. **Overtime.** A player who runs over loses 10 points for each minute or part of a minute over.",
    "3. **Overtime.** A player who runs over loses 10 points for each minute or part of a minute over. A player "
    "more than 10 minutes over loses the game by forfeit, scored as the director rules.",
)

CHANGES_2019 = """- **Words:** CSW19 replaces CSW15; a computer adjudicator may judge challenges.
- **Overtime:** more than 10 minutes over the time forfeits the game."""

WESPA = """The association's events may follow the **WESPA tournament rules** (the World English-Language
Scrabble Players' Association's) instead of the association's own. An event that does so says it when it is
announced, and names the WESPA edition it follows.

In Singapore, events that follow WESPA's rules keep two choices of the association's:

1. The challenge penalty is **5 points for each word** challenged, when every word challenged is acceptable.
2. Standings are by wins, then spread, with no tie-break.

WESPA's own rules are published on [its site](https://www.wespa.org/rules/).
"""


def load(stdout) -> None:
    staff = User.objects.get(email="staff@example.org")
    association = Association.objects.get(slug="sa")
    own = services.save_book(
        staff,
        RuleBook(
            association=association,
            title="Scrabble Association Tournament Rules",
            slug=ASSOCIATION_SLUG,
            summary="The association's rules for rated tournaments, and for any event that follows them",
            position=0,
        ),
    )
    services.publish_version(staff, own, text=RULES_2015, effective_on=date(2015, 9, 1))
    services.publish_version(staff, own, text=RULES_2019, changes=CHANGES_2019, effective_on=date(2019, 9, 1))
    wespa = services.save_book(
        staff,
        RuleBook(
            association=association,
            title="WESPA Tournament Rules, as the association adopts them",
            slug=WESPA_SLUG,
            summary="For events that follow WESPA's rules: what the association keeps of its own",
            based_on=None,
            position=1,
        ),
    )
    services.publish_version(staff, wespa, text=WESPA, effective_on=date(2015, 9, 1))
    stdout.write("Rule books: the association's tournament rules (two versions) and WESPA's, as adopted.\n")


def current(slug: str):
    """The current version of a demo rule book, for the events' demo to follow (None when the rule books' demo is not
    loaded: the events then follow none)."""
    book = RuleBook.objects.filter(slug=slug).first()
    return services.current_version(book) if book else None
