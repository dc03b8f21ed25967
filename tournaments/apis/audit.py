"""An event's audit trail, for those who may read it."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import generics, serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import STAFF, Pagination, error_responses
from core.doorway import enter
from tournaments import doors, policy
from tournaments.policy import Action
from tournaments.selectors.people import AUDIT_KINDS, event_audit_of_kind


@extend_schema_serializer(component_name="AuditEntry")
class AuditEntryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    time = serializers.DateTimeField(source="created_at")
    actor = serializers.SerializerMethodField(help_text="Who made the change (username); null: Podium itself.")
    action = serializers.CharField(help_text="<entity>.<verb>: result.corrected, registration.dropped, ...")
    subject = serializers.CharField(help_text='What it happened to, in words: "Round 2, table 3", "Ash (#12)".')
    before = serializers.JSONField(allow_null=True, help_text="The values before the change (null: none).")
    after = serializers.JSONField(allow_null=True, help_text="The values after it (null: none).")
    reason = serializers.CharField(help_text="The reason given (corrections, undone drops), or empty.")

    def get_actor(self, entry) -> str | None:
        return entry.actor.get_username() if entry.actor else None


class EventAuditApi(generics.ListAPIView):
    """The event's audit trail, newest first: every change made through Podium, who made it and when."""

    permission_classes = [IsAuthenticated]
    pagination_class = Pagination
    serializer_class = AuditEntryOutput

    class FilterSerializer(serializers.Serializer):
        kind = serializers.ChoiceField(
            choices=sorted(AUDIT_KINDS), required=False, help_text="Only entries of this kind (default: all)."
        )

    def get_queryset(self):
        event = enter(self.request, doors.EVENT, self.kwargs["event_id"])
        policy.ensure(self.request.user, Action.READ_AUDIT, event)
        filters = self.FilterSerializer(data=self.request.query_params)
        filters.is_valid(raise_exception=True)
        return event_audit_of_kind(event=event, kind=filters.validated_data.get("kind"))

    @extend_schema(
        parameters=[FilterSerializer],
        responses={200: AuditEntryOutput(many=True), **error_responses("invalid", *STAFF, "not_found")},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Paged like every list (``limit``, ``offset``); ``kind`` keeps one kind of change."""
        return super().get(request, *args, **kwargs)
