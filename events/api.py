def register(router) -> None:
    """Adds this app's API routes to the site's router."""
