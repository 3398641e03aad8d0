"""Money's pages: paying (pay), card checkout (card), bank statements (statements), the treasurer's (treasurer)."""
