"""Visitor insights: counts per hour, nothing that could pick a visitor out. No Flask here:
schema, store (SQLite or PostgreSQL), recorder, report, charts; the web side is kiosk.web.insights.
"""
