"""Staff views of lexicons and the judges' logs. A lexicon's words are uploaded through
wordjudge.services.import_lexicon (the admin's form calls it); logs are read-only."""

from django import forms
from django.contrib import admin

from clubsite.kit.admin import ModelAdmin, ReadOnlyAdmin
from clubsite.kit.errors import ServiceError

from . import services
from .models import Judgement, JudgeSession, Lexicon


class LexiconAdminForm(forms.ModelForm):
    file = forms.FileField(required=False, help_text="Plain text, one word a line. Replaces the list's words.")

    class Meta:
        model = Lexicon
        fields = ["name"]

    def clean_file(self):
        """Checks the list before anything is saved (the import is all or nothing)."""
        upload = self.cleaned_data.get("file")
        if upload is None:
            self.file_data = None
            return upload
        self.file_data = upload.read()
        try:
            services.read_word_list(self.file_data)
        except ServiceError as error:
            raise forms.ValidationError(error.message)
        return upload


@admin.register(Lexicon)
class LexiconAdmin(ModelAdmin):
    form = LexiconAdminForm
    list_display = ["name", "word_count", "version", "uploaded_at", "uploaded_by"]
    readonly_fields = ["word_count", "version", "uploaded_at", "uploaded_by"]
    search_fields = ["name"]

    def get_queryset(self, request):
        return super().get_queryset(request).defer("words")

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        form.base_fields["file"].required = obj is None
        return form

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)  # the name
        if form.file_data is not None:
            saved = services.import_lexicon(request.user, obj.name, form.file_data)
            obj.pk, obj.version, obj.word_count = saved.pk, saved.version, saved.word_count


@admin.register(JudgeSession)
class JudgeSessionAdmin(ReadOnlyAdmin):
    list_display = ["event", "opened_at", "opened_by", "closed_at", "closed_by"]
    list_filter = ["closed_at"]
    search_fields = ["event__title"]


@admin.register(Judgement)
class JudgementAdmin(ReadOnlyAdmin):
    list_display = ["judged_at", "event", "board", "words", "acceptable", "lexicon_name", "lexicon_version"]
    list_filter = ["acceptable"]
    search_fields = ["event__title", "words"]
