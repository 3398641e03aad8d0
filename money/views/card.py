"""card pages."""

urls = []
