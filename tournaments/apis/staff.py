"""An event's staff: the accounts with a role at it (co-organiser, scorekeeper, judge, caster)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import BODY, STAFF, Pagination, error_responses, paginated
from core.doorway import enter
from tournaments import doors, policy, selectors
from tournaments.models import EventStaff
from tournaments.policy import Action
from tournaments.selectors import people as people_selectors
from tournaments.services import staff as staff_services


@extend_schema_serializer(component_name="StaffMember")
class StaffOutput(serializers.Serializer):
    user = serializers.CharField(source="user.username", help_text="The account's username.")
    role = serializers.ChoiceField(choices=EventStaff.Role.choices)
    added_at = serializers.DateTimeField(source="created_at")


class EventStaffApi(APIView):
    """The event's staff: users with a role (co-organiser, scorekeeper, judge, caster), for its organisers."""

    permission_classes = [IsAuthenticated]
    pagination_class = Pagination

    @extend_schema_serializer(component_name="StaffAdd")
    class InputSerializer(serializers.Serializer):
        user = serializers.CharField(max_length=150, help_text="The account's username.")
        role = serializers.ChoiceField(choices=EventStaff.Role.choices)

    @extend_schema(responses={200: StaffOutput(many=True), **error_responses(*STAFF, "not_found")})
    def get(self, request: Request, event_id: int) -> Response:
        event = enter(request, doors.EVENT, event_id)
        policy.ensure(request.user, Action.MANAGE_STAFF, event)
        staff = selectors.event_staff(event=event)
        return paginated(self, request, staff, lambda page: StaffOutput(page, many=True).data)

    @extend_schema(
        request=InputSerializer,
        responses={
            201: StaffOutput,
            200: OpenApiResponse(StaffOutput, description="The account had a role at the event: it has this one now."),
            **error_responses(*BODY, *STAFF, "not_found", "unknown_user", "already_organiser"),
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        """Give an account a role at the event (or change the role it has)."""
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        event = enter(request, doors.EVENT, event_id)
        username = serializer.validated_data["user"]
        had_role = people_selectors.has_staff_role(event=event, username=username)
        member = staff_services.staff_add(
            event=event, username=username, role=serializer.validated_data["role"], by=request.user
        )
        return Response(StaffOutput(member).data, status=status.HTTP_200_OK if had_role else status.HTTP_201_CREATED)


class EventStaffRemoveApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={
            204: OpenApiResponse(description="Removed: the account has no role at the event any more."),
            **error_responses(*STAFF, "not_found", "unknown_user", "not_staff"),
        },
    )
    def delete(self, request: Request, event_id: int, username: str) -> Response:
        """Take the account's role at the event away (the staff left: ``GET .../staff/``)."""
        event = enter(request, doors.EVENT, event_id)
        staff_services.staff_remove(event=event, username=username, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
