from django.db import models


class Counter(models.Model):
    """Named gap-free sequences (member numbers, receipt and credit-note numbers): `sequences.next_in_sequence`."""

    name = models.CharField(max_length=50, primary_key=True)
    value = models.PositiveBigIntegerField(default=0)

    class Meta:
        db_table = "players_counter"  # the table it had when members were the only sequence

    def __str__(self):
        return f"{self.name}={self.value}"
