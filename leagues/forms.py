"""The league management page's and the archetypes page's forms: they check the input's shape; the services check the
rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from leagues.points import PRESETS, PointsTable
from rules import FORMATS
from tournaments.models import EventStaff

if TYPE_CHECKING:
    from collections.abc import Iterable

    from leagues.models import Season
    from tournaments.models import Event


class LeagueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    formats = forms.MultipleChoiceField(label=_("Formats"), choices=(), widget=forms.CheckboxSelectMultiple)
    description = forms.CharField(
        label=_("Description"), max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    is_public = forms.BooleanField(required=False, initial=True, label=_("Public (anyone may read its pages)"))

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        formats = self.fields["formats"]
        assert isinstance(formats, forms.MultipleChoiceField)
        formats.choices = [(f.slug, f.name) for f in FORMATS.values()]


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    starts_on = forms.DateField(label=_("Starts on"), widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=_("Ends on"), widget=forms.DateInput(attrs={"type": "date"}))
    preset = forms.ChoiceField(
        label=_("Preset"), choices=[(p.slug, p.label) for p in PRESETS.values()], initial="balanced"
    )


def _bands(text: str) -> list[list[int]]:
    bands = []
    for part in (text or "").replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        place, _colon, points = part.partition(":")
        try:
            bands.append([int(place), int(points)])
        except ValueError:
            raise forms.ValidationError(
                _("'%(part)s' is not PLACE:POINTS (e.g. 1:15, 2:12, 4:10).") % {"part": part}
            ) from None
    return bands


def _numbers(text: str) -> list[int]:
    try:
        return [int(p) for p in (text or "").replace(";", ",").split(",") if p.strip()]
    except ValueError:
        raise forms.ValidationError(_("Whole numbers separated by commas (e.g. 4, 3, 2, 1).")) from None


class PointsTableForm(forms.Form):
    """A points table as the organiser types it: bands as ``1:15, 2:12, 4:10``, pods as ``4, 3, 2, 1``."""

    placement = forms.CharField(
        required=False, label=_("Final placing (down to place: points)"), help_text=_("e.g. 1:15, 2:12, 4:10, 8:8")
    )
    match_win = forms.IntegerField(min_value=0, max_value=10_000, initial=0, label=_("Per 1v1 match won"))
    match_draw = forms.IntegerField(min_value=0, max_value=10_000, initial=0, label=_("Per 1v1 match drawn"))
    pod_placement = forms.CharField(required=False, label=_("Per pod (1st, 2nd, ...)"), help_text=_("e.g. 4, 3, 2, 1"))
    attendance = forms.IntegerField(min_value=0, max_value=10_000, initial=0, label=_("For attending"))
    best_n = forms.IntegerField(min_value=1, max_value=1000, required=False, label=_("Count the best N events"),
                                help_text=_("Empty: every event counts."))  # fmt: skip
    reason = forms.CharField(max_length=500, required=False, label=_("Why (kept in the league's trail)"))

    def clean_placement(self) -> list[list[int]]:
        return _bands(self.cleaned_data.get("placement", ""))

    def clean_pod_placement(self) -> list[int]:
        return _numbers(self.cleaned_data.get("pod_placement", ""))

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        table = {k: data[k] for k in ("placement", "match_win", "match_draw", "pod_placement", "attendance")}
        table["best_n"] = data.get("best_n")
        return {"points_table": table, "reason": data.get("reason", "")}

    @classmethod
    def for_season(cls, season: Season) -> PointsTableForm:
        table = PointsTable.from_json(season.points_table)
        return cls(
            initial={
                "placement": ", ".join(f"{d}:{p}" for d, p in table.placement),
                "match_win": table.match_win, "match_draw": table.match_draw,
                "pod_placement": ", ".join(map(str, table.pod_placement)), "attendance": table.attendance,
                "best_n": table.best_n,
            }
        )  # fmt: skip


class SeasonEventForm(forms.Form):
    event = forms.TypedChoiceField(label=_("Event"), coerce=int, choices=())

    def __init__(self, *args: Any, events: Iterable[Event] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        event = self.fields["event"]
        assert isinstance(event, forms.TypedChoiceField)
        event.choices = [(e.pk, f"{e.name} ({e.get_format_display()}, {e.date})") for e in events]


class StaffForm(forms.Form):
    user = forms.CharField(max_length=150, label=_("Username"))
    role = forms.ChoiceField(label=_("Role"), choices=EventStaff.Role.choices)


class ArchetypeNameForm(forms.Form):
    """The organiser's name for one deck's archetype (a form per deck, prefixed by its registration); empty:
    Podium's name again."""

    name = forms.CharField(max_length=100, required=False, label=_("Archetype"))
