from django.apps import AppConfig


class WordJudgeConfig(AppConfig):
    name = "wordjudge"
    verbose_name = "Word judge"

    def load_demo(self, stdout):
        """A small demo word list under the demo events' lexicon names (after the events' demo)."""
        from . import demo

        demo.load(stdout)
