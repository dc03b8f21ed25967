from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from django.utils.translation import gettext, ngettext, pgettext

        # The audit trail and the standings subscribe to the domain events (core.events); the standings' lag is a
        # figure of /metrics (core.metrics).
        from tournaments import figures, readers, words  # noqa: F401

        # Results in words (a pure module) speak the request's language through Django's translations.
        words.speak_with(gettext=gettext, pgettext=pgettext, ngettext=ngettext)
        # So do the rules' phrases (deck violations, refused game entries, decklist problems: rules.speech).
        from rules import speech

        speech.speak_with(gettext=gettext, ngettext=ngettext)
