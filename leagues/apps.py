from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Leagues"

    def ready(self) -> None:
        # Season standings and ratings follow the domain events (core.events); the league's staff hold their
        # roles at its events (tournaments.policy asks the league for them).
        from leagues import readers  # noqa: F401
