from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # The audit trail and the standings subscribe to the domain events (core.events).
        from tournaments import readers  # noqa: F401
