"""Brazilian Portuguese: "sáb, 28 de nov, 14:00 BRT" (see config/formats)."""

SHORT_DATETIME_FORMAT = r"D, j \d\e b, H:i T"
DATETIME_FORMAT = r"D, j \d\e b \d\e Y, H:i"
TIME_FORMAT = "H:i"
