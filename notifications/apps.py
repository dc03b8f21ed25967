from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("Notifications")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Notifications follow the domain events (core.events): each reader turns one into deliveries.
        from notifications import readers  # noqa: F401
