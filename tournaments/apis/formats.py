"""The formats Podium runs (``/api/v1/formats/``): their options and how Podium reads their rulebooks."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import Pagination, paginated
from rules import FORMATS


@extend_schema_serializer(component_name="FormatOption")
class FormatOptionOutput(serializers.Serializer):
    name = serializers.CharField()
    # DRF takes fields out of the class; the stubs see Field's attribute overridden (djangorestframework-stubs#158).
    label = serializers.CharField()  # type: ignore[assignment]
    default = serializers.JSONField(allow_null=True)
    choices = serializers.ListField(child=serializers.JSONField(), required=False, help_text="The values allowed.")
    minimum = serializers.IntegerField(required=False, help_text="With maximum: the integers allowed.")
    maximum = serializers.IntegerField(required=False)
    named = serializers.BooleanField(required=False, help_text="The value names an imported banlist.")
    uses = serializers.ListField(child=serializers.ChoiceField(choices=["deck", "game", "tables"]))
    rule = serializers.CharField()
    quote = serializers.CharField()
    house_rule = serializers.BooleanField()
    help = serializers.CharField()


@extend_schema_serializer(component_name="Interpretation")
class InterpretationOutput(serializers.Serializer):
    rule = serializers.CharField()
    text = serializers.CharField(help_text="The rulebook's words (or what it leaves unsaid).")
    choice = serializers.CharField(help_text="What Podium does.")
    option = serializers.CharField(allow_null=True, help_text="The event option that changes it, if any.")


class FormatListApi(APIView):
    permission_classes = [AllowAny]
    pagination_class = Pagination

    @extend_schema_serializer(component_name="Format")
    class OutputSerializer(serializers.Serializer):
        slug = serializers.CharField()
        name = serializers.CharField()
        family = serializers.CharField()
        min_players = serializers.IntegerField(source="table_size.min")
        max_players = serializers.IntegerField(source="table_size.max")
        preferred_players = serializers.IntegerField(source="table_size.preferred")
        starting_life = serializers.IntegerField()
        games_per_match = serializers.IntegerField()
        options = serializers.SerializerMethodField(
            help_text="The options an event may set: the rulebook's variants and Podium's house rules (house_rule: "
            "a value other than the default departs from the rulebook's text), each with its values, default, "
            "where it is used (deck rules, game engine, tables) and the rulebook's words."
        )
        interpretations = serializers.SerializerMethodField(
            help_text="Where Podium reads the rulebook: its text, Podium's choice, the option that changes it."
        )

        @extend_schema_field(FormatOptionOutput(many=True))
        def get_options(self, fmt) -> list[dict[str, Any]]:
            return [o.as_dict() for o in fmt.options]

        @extend_schema_field(InterpretationOutput(many=True))
        def get_interpretations(self, fmt) -> list[dict[str, Any]]:
            return [i.as_dict() for i in fmt.interpretations]

    @extend_schema(responses=OutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        return paginated(
            self, request, list(FORMATS.values()), lambda page: self.OutputSerializer(page, many=True).data
        )
