"""pay pages."""

urls = []
