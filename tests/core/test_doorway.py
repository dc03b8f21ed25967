"""The one doorway (core.doorway): what a page and an API view answer for a missing, hidden or refused object."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import PermissionDenied as PagePermissionDenied
from django.http import Http404
from django.test import RequestFactory
from rest_framework.request import Request

from core.doorway import Door, admit, enter
from core.exceptions import NotFound as ApiNotFound
from core.exceptions import PermissionDenied as ApiPermissionDenied

THINGS = {1: "one", 2: "two", 3: "secret"}


def _load(pk: int) -> str:
    try:
        return THINGS[pk]
    except KeyError:
        raise ObjectDoesNotExist from None


THING = Door("Thing", _load, hidden=lambda request, obj: obj == "secret")
ONLY_ONE = THING.asking(lambda request, obj: None if obj == "one" else "Only the one may be changed.")


def _page():
    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    return request


def _api():
    return Request(_page())


def test_a_door_lets_in_what_it_loads_when_the_policy_says_nothing():
    assert enter(_page(), THING, 1) == "one"
    assert enter(_api(), ONLY_ONE, 1) == "one"


def test_a_missing_object_is_the_pages_404_and_the_apis_not_found_with_its_name():
    with pytest.raises(Http404, match="Thing 9 does not exist."):
        enter(_page(), THING, 9)
    with pytest.raises(ApiNotFound, match="Thing 9 does not exist.") as caught:
        enter(_api(), THING, 9)
    assert caught.value.code == "not_found"


def test_a_hidden_object_answers_exactly_as_a_missing_one():
    with pytest.raises(Http404, match="Thing 3 does not exist."):
        enter(_page(), THING, 3)
    with pytest.raises(ApiNotFound, match="Thing 3 does not exist."):
        enter(_api(), THING, 3)


def test_a_refusal_is_the_policys_sentence_in_the_askers_voice():
    with pytest.raises(PagePermissionDenied, match="Only the one may be changed."):
        enter(_page(), ONLY_ONE, 2)
    with pytest.raises(ApiPermissionDenied, match="Only the one may be changed.") as caught:
        enter(_api(), ONLY_ONE, 2)
    assert caught.value.status_code == 403


def test_a_door_may_say_what_is_missing_its_own_way_with_its_own_api_code():
    door = Door("Station", _load, missing="Event {0} has no station {1!r}.", code="station_not_found")
    with pytest.raises(ApiNotFound, match="Event 7 has no station 'x'.") as caught:
        enter(_api(), Door("Station", lambda event, slug: _load(0), missing=door.missing, code=door.code), 7, "x")
    assert caught.value.code == "station_not_found"


def test_admit_answers_a_refusal_and_lets_no_refusal_through():
    admit(_page(), None)
    with pytest.raises(PagePermissionDenied, match="No."):
        admit(_page(), "No.")
    with pytest.raises(ApiPermissionDenied, match="No."):
        admit(_api(), "No.")
