"""Cross-cutting pieces shared by the apps: the error type services raise and the API error shape."""
