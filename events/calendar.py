"""iCalendar files: one per event (add to calendar) and a feed of all public events."""

from datetime import datetime, timedelta

from django.conf import settings
from icalendar import Calendar
from icalendar import Event as CalendarEvent

from .models import EventStatus


def _when(event):
    """Start and end: timed in the event's zone when the schedule gives times, else whole days."""
    start_time = event.start_time or event.reporting_time
    if start_time:
        start = datetime.combine(event.starts_on, start_time, tzinfo=event.zone)
        end_time = event.estimated_end_time or event.prize_presentation_until or event.prize_presentation_time
        end = datetime.combine(event.ends_on, end_time, tzinfo=event.zone) if end_time else start + timedelta(hours=8)
        return start, max(end, start + timedelta(minutes=30))
    return event.starts_on, event.ends_on + timedelta(days=1)


def to_ical(events, request=None) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", f"-//{settings.SITE_NAME}//events//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", f"{settings.SITE_NAME} events")
    host = request.get_host() if request else "clubsite"
    for event in events:
        item = CalendarEvent()
        item.add("uid", f"event-{event.pk}@{host}")
        item.add("summary", event.title)
        start, end = _when(event)
        item.add("dtstart", start)
        item.add("dtend", end)
        item.add("dtstamp", event.updated_at)
        location = ", ".join(part for part in (event.venue, event.address) if part)
        if location:
            item.add("location", location)
        url = request.build_absolute_uri(event.get_absolute_url()) if request else event.get_absolute_url()
        item.add("url", url)
        lines = [event.organisers and f"Organised by {event.organisers}", event.eligibility, url]
        item.add("description", "\n".join(line for line in lines if line))
        item.add("status", "CANCELLED" if event.status == EventStatus.CANCELLED else "CONFIRMED")
        calendar.add_component(item)
    calendar.add_missing_timezones()
    return calendar.to_ical()
