"""statements pages."""

urls = []
