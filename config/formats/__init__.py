"""Podium's own date and time formats per language (``FORMAT_MODULE_PATH``), over Django's.

The pages say when something happens in the event's zone, with the weekday and the zone's abbreviation; these named
formats give each language its own order and words for it, and English the form the pages always had:

* ``SHORT_DATETIME_FORMAT``: a moment this season, "Sat 28 Nov, 14:00 CET";
* ``DATETIME_FORMAT``: with the year, "Sat 28 Nov 2026, 14:00 CET";
* ``TIME_FORMAT``: a time of day on the 24-hour clock, "14:00".

Templates write ``{{ moment|date:"SHORT_DATETIME_FORMAT" }}``; machine-readable values keep ISO (``|date:"c"`` in
``<time datetime>``), and exports and the API their own fixed forms.
"""
