from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = "Live"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The live push follows the domain events (core.events); its open streams are a figure of /metrics
        # (core.metrics).
        from live import figures, readers  # noqa: F401
