"""Judge console forms: input shapes only; the format's engine decides what is legal.

One :class:`GameEventForm` per event type is built from the engine's ``EventSpec``: each field's
:class:`~rules.engine.Kind` picks its widget, so a judge never types an id or JSON.

=================  ============================================================================
kind               widget (POST names)
=================  ============================================================================
``player``         a choice of the game's players by name (``<field>``)
``players``        a checkbox per player (``<field>``, repeated)
``amount``         a signed number (``<field>``)
``count``          a number from the field's minimum (``<field>``)
``choice``         a dropdown of the choices (``<field>``)
``player_amounts`` a signed number per player still in, blank for no change (``<field>_<player id>``)
``placements``     a placement per player still in (``<field>_<player id>``)
``counts``         a number per choice, blank for none (``<field>_<choice>``)
``card``, ``text`` a text box; ``tag`` a text box suggesting the tags in play
``boolean``        a checkbox, ticked when the engine's default is true
``entries``        rows of the item's fields (``<field>_<row>_<item field>``); a row counts once its
                   first field is filled
=================  ============================================================================

A blank optional field is left out of the payload, so the engine's own defaults apply; a
required one is a form error at the field.  Every form carries the game version it was rendered
at, so a judge never records over an entry they have not seen.  :func:`post_fields` is the
inverse: the POST data that records a given payload, which one-tap buttons submit.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.api import MAX_INT
from games.display import label
from rules.engine import EventSpec, Kind
from rules.engine import Field as SpecField
from rules.speech import say

#: Form fields of the console itself; no engine field may use these names.
RESERVED_FIELDS = frozenset({"type", "expected_version", "csrfmiddlewaretoken", "quick"})

#: Numbers typed into the console stay within this (the engines take any integer; a judge never needs more).
LIMIT = 10**9


def field_label(name: str, spec_field: SpecField) -> str:
    """The field's label in the reader's language (a phrase of the vocabulary), else its name."""
    return say(spec_field.label) if spec_field.label else label(name)


_GROUP_HELP = {
    Kind.PLAYER_AMOUNTS: gettext_lazy(
        "A signed change for each player it affects (−1000 loses, +500 gains); blank for none."
    ),
    Kind.PLACEMENTS: gettext_lazy("1 for first; players sharing a place get the same number."),
    Kind.COUNTS: gettext_lazy("How many of each; blank for none."),
}
_HELP_PREFIXES = ("optional bool: ", "optional bool", "optional: ", "optional, ", "optional ")


def form_help(spec_field: SpecField) -> str:
    """The vocabulary's description as help for a judge: the form already says what is optional.

    What is noise is decided on the English (a list of the dropdown's choices, "the player"); a description said
    in another language is its translation as a whole, which the translators word as help."""
    if spec_field.kind in _GROUP_HELP:
        return str(_GROUP_HELP[spec_field.kind])
    if spec_field.kind == Kind.ENTRIES and spec_field.repeats:
        return _("Others at the same moment as the one above, one row each; leave the rest blank.")
    text = spec_field.description
    for prefix in _HELP_PREFIXES:
        if text.startswith(prefix):
            text = text[len(prefix) :]
            break
    text = _DEFAULT_NOTE.sub("", text.strip()).strip()
    if spec_field.kind == Kind.BOOLEAN:
        for prefix in ("true when ", "true to "):
            if text.startswith(prefix):
                text = text[len(prefix) :]
    # What the widget already says is noise: the list of a dropdown's choices, "the player", "text".
    words = {w for w in _WORDS.split(text.lower()) if w and w != "or"}
    if spec_field.kind == Kind.CHOICE and words <= set(spec_field.choices):
        return ""
    if text.lower() in ("the player", "text", "") or _ONLY_DEFAULT.match(text):
        return ""
    said = say(spec_field.description)
    if said != spec_field.description:
        text = said
    return text[:1].upper() + text[1:]


_DEFAULT_NOTE = re.compile(r"^\(default [^)]*\):?\s*")
_ONLY_DEFAULT = re.compile(r"^\(?(default )?\d+\)?$", re.IGNORECASE)
_WORDS = re.compile(r'[|,"/\s]+')


@dataclass
class Input:
    """One vocabulary field as the template lays it out: a single control, or a fieldset of several."""

    name: str
    label: str
    help: str
    kind: str
    optional: bool
    controls: list[forms.BoundField] = field(default_factory=list)
    rows: list[list[forms.BoundField]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    datalist: tuple[str, list[str]] | None = None

    @property
    def is_group(self) -> bool:
        return self.kind in (Kind.PLAYERS, Kind.PLAYER_AMOUNTS, Kind.PLACEMENTS, Kind.COUNTS, Kind.ENTRIES)

    @property
    def is_checkbox(self) -> bool:
        return self.kind == Kind.BOOLEAN


class GameEventForm(forms.Form):
    """One event type's entry: the engine's fields plus the type and the version the judge saw."""

    type = forms.CharField(widget=forms.HiddenInput, max_length=40)
    expected_version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=MAX_INT)

    def __init__(
        self,
        data=None,
        *,
        spec: EventSpec,
        players: Sequence[tuple[int, str]],
        still_in: Collection[int] | None = None,
        default_player: int | None = None,
        default_opponent: int | None = None,
        version: int | None = None,
        tags: Mapping[str, Sequence[str]] | None = None,
        **kwargs: Any,
    ):
        # Many of these forms share one page: ids carry the event type to stay unique.
        kwargs.setdefault("auto_id", f"id_{spec.type}_%s")
        super().__init__(data, **kwargs)
        self.spec = spec
        self.fields["type"].initial = spec.type
        self.fields["expected_version"].initial = version
        self.payload: dict[str, Any] = {}
        self.players = list(players)
        self.still_in = [pid for pid, _ in self.players if still_in is None or pid in still_in]
        self._defaults = {"player": default_player, "opponent": default_opponent}
        self._tags = tags or {}
        self._names: dict[str, list[str]] = {}  # vocabulary field -> its form field names
        for name, spec_field in spec.fields.items():
            if name in RESERVED_FIELDS:
                raise ValueError(f"The {spec.type} event has a field named {name!r}, which the console reserves.")
            self._names[name] = self._add(name, spec_field)

    # --- building ---------------------------------------------------------------------------------

    def _player_choices(self, blank: str) -> list[tuple[str, str]]:
        return [("", blank), *((str(pid), self._shown(pid, name)) for pid, name in self.players)]

    def _shown(self, pid: int, name: str) -> str:
        return name if pid in self.still_in else f"{name} (out)"

    def _control(self, name: str, spec_field: SpecField, *, required: bool, initial_player: bool = True) -> forms.Field:
        """The form field of a one-control kind."""
        kind = spec_field.kind
        attrs: dict[str, Any] = {}
        if kind == Kind.PLAYER:
            blank = _("— choose —") if required else _("— none —")
            initial = None
            if initial_player and required:
                # Defaults only save taps; the engine decides.  Whoever acts is usually the player in focus
                # (the turn player); a target, a partner, or the owner of what the focus player caused
                # (``player`` next to ``by``) is usually someone else.
                other = name in ("target", "partner") or (name == "player" and "by" in self.spec.fields)
                initial = self._defaults["opponent" if other else "player"]
            result: forms.Field = forms.TypedChoiceField(
                choices=self._player_choices(blank), coerce=int, empty_value=None, required=required, initial=initial
            )
        elif kind == Kind.AMOUNT:
            result = forms.IntegerField(min_value=-LIMIT, max_value=LIMIT, required=required)
            attrs = {"step": 1, "placeholder": "e.g. -10"}
        elif kind == Kind.COUNT:
            minimum = spec_field.minimum or 0
            maximum = spec_field.maximum if spec_field.maximum is not None else LIMIT
            result = forms.IntegerField(min_value=minimum, max_value=maximum, required=required)
            attrs = {"step": 1, "inputmode": "numeric"}
            if spec_field.default is not None:
                attrs["placeholder"] = f"{spec_field.default}"
        elif kind == Kind.CHOICE:
            if required:
                blank = _("— choose —")
            elif spec_field.default is not None:
                blank = f"— ({label(str(spec_field.default))}) —"
            else:
                blank = _("— none —")
            choices = [("", blank), *((c, label(c)) for c in spec_field.choices)]
            result = forms.ChoiceField(choices=choices, required=required)
        elif kind == Kind.BOOLEAN:
            result = forms.BooleanField(required=False, initial=bool(spec_field.default))
        elif kind in (Kind.CARD, Kind.TAG):
            result = forms.CharField(max_length=200, required=required, strip=True)
            attrs = {"autocomplete": "off"}
        elif kind == Kind.TEXT:
            result = forms.CharField(max_length=2000, required=required, strip=True)
            attrs = {"autocomplete": "off"}
        else:  # pragma: no cover - every one-control kind is above
            raise ValueError(f"no control for a {kind} field")
        result.widget.attrs.update(attrs)
        return result

    def _add(self, name: str, spec_field: SpecField) -> list[str]:
        kind = spec_field.kind
        required = not spec_field.optional
        text = field_label(name, spec_field)

        def put(key: str, form_field: forms.Field, shown: str) -> str:
            form_field.label = shown
            self.fields[key] = form_field
            return key

        if kind == Kind.PLAYERS:
            form_field = forms.TypedMultipleChoiceField(
                choices=[(str(pid), self._shown(pid, n)) for pid, n in self.players],
                coerce=int,
                required=required,
                widget=forms.CheckboxSelectMultiple,
            )
            return [put(name, form_field, text)]
        if kind in (Kind.PLAYER_AMOUNTS, Kind.PLACEMENTS):
            names = dict(self.players)
            keys = []
            for pid in self.still_in:
                if kind == Kind.PLAYER_AMOUNTS:
                    number = forms.IntegerField(min_value=-LIMIT, max_value=LIMIT, required=False)
                    number.widget.attrs.update(step=1, placeholder="±0")
                else:
                    number = forms.IntegerField(min_value=1, max_value=len(self.still_in), required=required)
                    number.widget.attrs.update(step=1, inputmode="numeric")
                keys.append(put(f"{name}_{pid}", number, names[pid]))
            return keys
        if kind == Kind.COUNTS:
            keys = []
            for choice in spec_field.choices:
                number = forms.IntegerField(min_value=0, max_value=LIMIT, required=False)
                number.widget.attrs.update(step=1, inputmode="numeric", placeholder="0")
                keys.append(put(f"{name}_{choice}", number, label(choice)))
            return keys
        if kind == Kind.ENTRIES:
            rows = max(len(self.still_in) - 1, 1) if spec_field.repeats else max(len(self.still_in), 1)
            first = 2 if spec_field.repeats else 1
            keys = []
            for row in range(rows):
                for sub, sub_field in spec_field.item:
                    control = self._control(sub, sub_field, required=False, initial_player=False)
                    shown = f"{field_label(sub, sub_field)} ({row + first})"
                    keys.append(put(f"{name}_{row}_{sub}", control, shown))
            return keys
        control = self._control(name, spec_field, required=required)
        control.help_text = form_help(spec_field)
        if control.help_text and isinstance(self.auto_id, str) and "%s" in self.auto_id:
            control.widget.attrs["aria-describedby"] = f"{self.auto_id % name}_help"
        if kind == Kind.TAG:
            control.widget.attrs["list"] = self._datalist_id(name)
        return [put(name, control, text)]

    def _datalist_id(self, name: str) -> str:
        if isinstance(self.auto_id, str) and "%s" in self.auto_id:
            return self.auto_id % f"{name}_tags"
        return f"{self.spec.type}_{name}_tags"

    # --- reading ------------------------------------------------------------------------------------

    @property
    def title(self) -> str:
        words = label(self.spec.type)
        return words[:1].upper() + words[1:]  # not str.capitalize(): German nouns keep their capitals

    @property
    def event_fields(self) -> list[Input]:
        """The vocabulary's fields, in order, as the template lays them out."""
        inputs = []
        for name, spec_field in self.spec.fields.items():
            keys = self._names[name]
            item = Input(
                name=name,
                label=field_label(name, spec_field),
                help=form_help(spec_field),
                kind=spec_field.kind.value,
                optional=spec_field.optional,
                errors=[str(error) for error in self.errors.get(name, ())],  # ErrorList yields its messages
            )
            if item.errors:
                # A fieldset's own error (no change given at all) marks each of its inputs.
                for key in keys:
                    self.fields[key].widget.attrs["aria-invalid"] = "true"
            if spec_field.kind == Kind.ENTRIES:
                width = len(spec_field.item)
                item.rows = [[self[k] for k in keys[i : i + width]] for i in range(0, len(keys), width)]
            else:
                item.controls = [self[k] for k in keys]
            if spec_field.kind == Kind.TAG:
                item.datalist = (self._datalist_id(name), list(self._tags.get(spec_field.source or "", ())))
            inputs.append(item)
        return inputs

    def error_summary(self) -> str:
        """The form's errors in one line, with the judge's labels."""
        parts = []
        for key, errors in self.errors.items():
            shown = self.fields[key].label if key in self.fields else None
            if shown is None and key in self.spec.fields:
                shown = field_label(key, self.spec.fields[key])
            parts.append(f"{shown or key}: {' '.join(map(str, errors))}")
        return "; ".join(parts)

    def clean_type(self) -> str:
        if self.cleaned_data["type"] != self.spec.type:
            raise forms.ValidationError(_("This form is for another event type."))
        return self.spec.type

    def _group_error(self, name: str, message: str) -> None:
        # A fieldset's error belongs to the vocabulary field, which has no form field of its own.
        self.errors.setdefault(name, self.error_class()).append(message)

    def _value(self, name: str, spec_field: SpecField, key: str, cleaned: Mapping[str, Any]) -> Any:
        """A one-control field's payload value, or ``None`` to leave it out."""
        value = cleaned.get(key)
        if spec_field.kind == Kind.BOOLEAN:
            return None if bool(value) == bool(spec_field.default) else bool(value)
        if value is None or value == "":
            return None
        if spec_field.kind == Kind.AMOUNT and value == 0:
            self.add_error(key, _("A change is not zero."))
            return None
        return value

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        payload: dict[str, Any] = {}
        for name, spec_field in self.spec.fields.items():
            keys = self._names[name]
            if any(k in self.errors for k in keys):
                continue  # the field already has an error
            kind = spec_field.kind
            if kind == Kind.PLAYERS:
                chosen = cleaned.get(name) or []
                if chosen:
                    payload[name] = list(chosen)
            elif kind in (Kind.PLAYER_AMOUNTS, Kind.PLACEMENTS):
                given = {
                    str(pid): cleaned[key]
                    for pid, key in zip(self.still_in, keys, strict=True)
                    if cleaned.get(key) not in (None, 0)
                }
                if given:
                    payload[name] = given
                elif not spec_field.optional:
                    missing = (
                        _("Give one player's change.") if kind == Kind.PLAYER_AMOUNTS else _("Give the placements.")
                    )
                    self._group_error(name, missing)
            elif kind == Kind.COUNTS:
                given = {c: cleaned[k] for c, k in zip(spec_field.choices, keys, strict=True) if cleaned.get(k)}
                if given:
                    payload[name] = given
                elif not spec_field.optional:
                    self._group_error(name, _("Give at least one amount."))
            elif kind == Kind.ENTRIES:
                rows = self._rows(name, spec_field, keys, cleaned)
                if rows:
                    payload[name] = rows
            else:
                value = self._value(name, spec_field, keys[0], cleaned)
                if value is not None:
                    payload[name] = value
        for name, spec_field in self.spec.fields.items():
            if spec_field.kind == Kind.ENTRIES and spec_field.repeats and name in payload:
                # Several at once: the event's own fields are the first entry of the list.
                first = {k: payload.pop(k) for k in list(payload) if k in spec_field.item_fields}
                payload[name] = [first, *payload[name]]
        self.payload = payload
        return cleaned

    def _rows(self, name: str, spec_field: SpecField, keys: list[str], cleaned: Mapping[str, Any]) -> list[dict]:
        item = spec_field.item
        rows = []
        for start in range(0, len(keys), len(item)):
            row_keys = keys[start : start + len(item)]
            lead = cleaned.get(row_keys[0])
            if lead in (None, ""):
                continue  # an unused row
            row: dict[str, Any] = {}
            for (sub, sub_field), key in zip(item, row_keys, strict=True):
                value = self._value(sub, sub_field, key, cleaned)
                if value is None and not sub_field.optional and key not in self.errors:
                    self.add_error(key, _("This field is required."))
                elif value is not None:
                    row[sub] = value
            rows.append(row)
        return rows


def post_fields(spec: EventSpec, payload: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The POST fields of :class:`GameEventForm` that record ``payload`` (for one-tap buttons)."""
    out: list[tuple[str, str]] = []
    for name, spec_field in spec.fields.items():
        kind = spec_field.kind
        value = payload.get(name)
        if kind == Kind.ENTRIES:
            if value:
                rows = value[1:] if spec_field.repeats else value
                for row, entry in enumerate(rows):
                    out += _one_control_fields(spec_field.item, entry, prefix=f"{name}_{row}_")
            continue
        if kind == Kind.PLAYERS:
            out += [(name, str(pid)) for pid in value or ()]
        elif kind in (Kind.PLAYER_AMOUNTS, Kind.PLACEMENTS, Kind.COUNTS):
            out += [(f"{name}_{key}", str(amount)) for key, amount in (value or {}).items()]
    repeats = next((f for f in spec.fields.values() if f.kind == Kind.ENTRIES and f.repeats), None)
    flat = payload
    if repeats is not None:
        entries_name = next(n for n, f in spec.fields.items() if f is repeats)
        if payload.get(entries_name):
            flat = {**payload, **payload[entries_name][0]}
    simple = tuple((n, f) for n, f in spec.fields.items() if f.kind not in _GROUP_KINDS)
    return _one_control_fields(simple, flat) + out


_GROUP_KINDS = frozenset({Kind.PLAYERS, Kind.PLAYER_AMOUNTS, Kind.PLACEMENTS, Kind.COUNTS, Kind.ENTRIES})


def _one_control_fields(
    fields: Iterable[tuple[str, SpecField]], values: Mapping[str, Any], *, prefix: str = ""
) -> list[tuple[str, str]]:
    out = []
    for name, spec_field in fields:
        value = values.get(name)
        if spec_field.kind == Kind.BOOLEAN:
            ticked = spec_field.default if value is None else value
            if ticked:
                out.append((prefix + name, "on"))
        elif value is not None:
            out.append((prefix + name, str(value)))
    return out


class VoidForm(forms.Form):
    expected_version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=MAX_INT)
    reason = forms.CharField(
        max_length=500,
        widget=forms.TextInput(attrs={"placeholder": gettext_lazy("Why is it void?"), "autocomplete": "off"}),
    )
