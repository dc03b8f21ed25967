from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Accounts and the player's own pages: sign-up, sign-in, password reset, claims, ``/me/`` and self-service."""

    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts import checks, signals  # noqa: F401 - registers the checks, connects the receivers
