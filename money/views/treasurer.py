"""treasurer pages."""

urls = []
