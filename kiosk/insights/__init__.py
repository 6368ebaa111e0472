"""Visitor insights: counts per hour of what visitors do, and nothing that could pick one out.

No Flask here: :mod:`~kiosk.insights.schema` names what is counted, :mod:`~kiosk.insights.store`
keeps the counts in SQLite (or PostgreSQL for several machines, :mod:`~kiosk.insights.postgres`),
:mod:`~kiosk.insights.recorder` batches them in memory per process and writes them every few
seconds, :mod:`~kiosk.insights.report` reads them back for a period
and :mod:`~kiosk.insights.charts` draws them. The web side is :mod:`kiosk.web.insights`.
"""
