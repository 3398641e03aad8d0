"""Club pages: the club list and each club's page (public), its director's pages (the page, nights, the door) and
its treasurer's takings. Every write goes through clubs.services, which checks the role (clubs.permissions)."""
