"""Money's pure parts: no Django, no database. Payment references, the PayNow (SGQR) payload, bank
statement parsing, tax arithmetic and the receipt's PDF."""
