from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # A table's result recorded by hand closes its game in progress (core.events).
        from games import readers  # noqa: F401
