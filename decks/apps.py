from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "decks"
    verbose_name = "Decks"

    def ready(self) -> None:
        # Deck checks are handed to Celery by readers of the domain events (core.events).
        from decks import readers  # noqa: F401
