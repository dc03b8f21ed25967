from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "decks"
    verbose_name = "Decks"

    def ready(self) -> None:
        from core import option_names
        from decks import readers  # noqa: F401  (deck checks are handed to Celery by readers of domain events)
        from decks.selectors import banlist_names

        # An event's ``banlist`` option names an imported banlist: the events service checks it against ours.
        option_names.register("banlist", banlist_names)
