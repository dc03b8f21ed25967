"""Spanish: "sáb 28 nov, 14:00 CET" (see config/formats)."""

SHORT_DATETIME_FORMAT = "D j b, H:i T"
DATETIME_FORMAT = r"D j b Y, H:i"
TIME_FORMAT = "H:i"
