from django.apps import AppConfig


class RulebooksConfig(AppConfig):
    name = "rulebooks"
    verbose_name = "Rule books"

    def load_demo(self, stdout):
        """The association's rule books (before the events' demo, whose events name a version)."""
        from . import demo

        demo.load(stdout)
