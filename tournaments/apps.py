from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # The audit trail and the standings subscribe to the domain events (core.events); the standings' lag is a
        # figure of /metrics (core.metrics).
        from tournaments import figures, readers  # noqa: F401
