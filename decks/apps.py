from django.apps import AppConfig


class DecksConfig(AppConfig):
    name = "decks"
    verbose_name = "Decks"

    def ready(self) -> None:
        from core import option_names
        from decks import readers  # noqa: F401  (deck checks are handed to Celery by readers of domain events)
        from decks.bundles import DECKS
        from decks.selectors import banlist_names
        from tournaments.services.bundles import part_register

        # An event's ``banlist`` option names an imported banlist: the events service checks it against ours.
        option_names.register("banlist", banlist_names)
        # An event bundle carries the event's decks: this app writes and stores that part.
        part_register(DECKS)
