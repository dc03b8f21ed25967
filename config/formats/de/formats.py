"""German: "Sa, 28. Nov, 14:00 CET" (see config/formats)."""

SHORT_DATETIME_FORMAT = "D, j. M, H:i T"
DATETIME_FORMAT = "D, j. M Y, H:i"
TIME_FORMAT = "H:i"
