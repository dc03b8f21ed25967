"""The admin's read-only pages for what only the services may change.

Seats, results, rounds, tables, stored standings, registrations, penalties,
deck versions, game logs, the audit trail and the live app's rows change
through the services (the dashboard and the API), which check the change,
keep the standings current and write the audit trail.  An admin edit would do
none of that: the standings would stay stale while they still say they are
current, and nobody could tell who changed what.  So their admin pages read
and never write: no add, change or delete (nor the bulk delete action), and
the change page says where such changes are made.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse

#: The note on a read-only change page (``{things}``: the model's plural name).
READ_ONLY_NOTE = (
    "Read only. {things} change on the event's dashboard or through the API, where Podium's services check "
    "each change, keep the standings current and write it in the audit trail."
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """A model admin that only shows: every row can be read, none added, changed or deleted here."""

    change_form_template = "admin/read_only_change_form.html"
    #: Where this model's changes are made, when the default note does not say it well.
    read_only_note: str = READ_ONLY_NOTE

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "", extra_context: dict | None = None
    ) -> HttpResponse:
        note = self.read_only_note.format(things=str(self.model._meta.verbose_name_plural).capitalize())
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), "read_only_note": note})


class ReadOnlyInline(admin.TabularInline):
    """An inline of a read-only page: its rows are shown, never added, changed or deleted."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
