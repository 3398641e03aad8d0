from django.apps import AppConfig


class WordJudgeConfig(AppConfig):
    name = "wordjudge"
    verbose_name = "Word judge"
