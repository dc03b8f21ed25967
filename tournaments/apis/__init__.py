"""REST API of the tournaments app (``/api/v1/``), one module per concern like :mod:`tournaments.services`.

One view per operation; input and output serializers sit with the view.
Views translate HTTP to a service call or a selector and back; the rules live
in :mod:`tournaments.services`, who may do what in :mod:`tournaments.policy`.
Errors use the shape of :mod:`core.api`.  ``tournaments/api_urls.py`` names
each view's module:

* :mod:`.formats` - the formats and their options;
* :mod:`.events` - events, their settings and structure, the top cut, finishing;
* :mod:`.staff` - an event's staff;
* :mod:`.registrations` - entries and invitations, check-in, fixed tables, byes, drops, claim codes;
* :mod:`.rounds` - pairing rounds, re-pairing, swaps;
* :mod:`.results` - a table's result: entered, reported and confirmed by its players, corrected;
* :mod:`.standings` - the standings;
* :mod:`.players` - finding, creating and claiming player records;
* :mod:`.audit` - an event's audit trail;
* :mod:`.penalties` - penalties given and rescinded;
* :mod:`.outputs` - the output shapes several modules answer with, and who reads them (privacy);
* :mod:`._common` - looking up the event and a registration, the numbers' limits.
"""
