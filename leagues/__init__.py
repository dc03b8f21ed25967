"""Leagues: seasons of events with league points, ratings per format, the meta report and exports."""
