from django.apps import AppConfig


class FloorConfig(AppConfig):
    name = "floor"
    verbose_name = "Venue floor"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Judge calls reach the judges' phones and the table's players through the live push (live.publish).
        from floor import readers  # noqa: F401
