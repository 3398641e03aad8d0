"""Tournament play: divisions, rounds and pairings, results, standings, prizes, tsh interchange."""
