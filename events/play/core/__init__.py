"""The pure cores of events: no Django, no database, plain dataclasses in and out.

pairing/    pairing systems (random, round robin, King of the Hill, Swiss, Fontes) and firsts
results.py  what one game record means: wins, losses, spread, byes and forfeits
standings.py  ranking, ties, withdrawals, spread caps
prizes.py   place, class and high-game prizes
divisions.py  division assignment by rating bands
tsh.py      the tsh `.t` and `config.tsh` formats
tables.py   multi-player tables (seed 001): the draw for seats, the tile adjustment, places
ladder.py   a club's season ladder from its nights' games, tables and attendance
"""
