from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = "Live"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The live push follows the domain events (core.events).
        from live import readers  # noqa: F401
