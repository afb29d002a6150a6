"""Occurrences of a feed as libical (the C library behind Evolution and GNOME) sees them.

Run with Debian's python3, which has the GObject binding (gir1.2-ical-3.0).
Same output as icaljs.mjs.   usage: /usr/bin/python3 libical_occurrences.py FEED FROM TO
"""

import sys

import gi

gi.require_version("ICalGLib", "3.0")
from gi.repository import ICalGLib as ical  # noqa: E402

feed, low, high = sys.argv[1:4]
with open(feed, encoding="utf-8") as handle:
    root = ical.Component.new_from_string(handle.read())
utc = ical.Timezone.get_utc_timezone()
lower = ical.Time.new_from_string(low.replace("-", "") + "T000000Z")
upper = ical.Time.new_from_string(high.replace("-", "") + "T000000Z")


def show(moment):
    if moment.is_date():
        return f"{moment.get_year():04d}-{moment.get_month():02d}-{moment.get_day():02d}"
    if moment.get_timezone() is None and not moment.is_utc():
        return moment.as_ical_string() + "(floating)"
    u = ical.Time.convert_to_zone(moment, utc)
    return (f"{u.get_year():04d}-{u.get_month():02d}-{u.get_day():02d}T"
            f"{u.get_hour():02d}:{u.get_minute():02d}:{u.get_second():02d}Z")


def instant(moment):
    return moment if moment.is_date() else ical.Time.convert_to_zone(moment, utc)


rows = []
event = root.get_first_component(ical.ComponentKind.VEVENT_COMPONENT)
while event is not None:
    start, end = event.get_dtstart(), event.get_dtend()
    status_prop = event.get_first_property(ical.PropertyKind.STATUS_PROPERTY)
    status = status_prop.get_value_as_string() if status_prop else ""
    pairs = [(start, end)]
    rule = event.get_first_property(ical.PropertyKind.RRULE_PROPERTY)
    if rule is not None:
        length = ical.Time.subtract(end, start)
        excluded = set()
        prop = event.get_first_property(ical.PropertyKind.EXDATE_PROPERTY)
        while prop is not None:
            excluded.add(show(prop.get_exdate()))
            prop = event.get_next_property(ical.PropertyKind.EXDATE_PROPERTY)
        iterator = ical.RecurIterator.new(rule.get_rrule(), start)
        pairs = []
        moment = iterator.next()
        while moment is not None and not moment.is_null_time() and len(pairs) < 5000:
            if ical.Time.compare(instant(moment), upper) >= 0:
                break
            if show(moment) not in excluded:
                finish = ical.Time.add(moment, length)
                pairs.append((moment, finish))
            moment = iterator.next()
    for first, last in pairs:
        if ical.Time.compare(instant(first), upper) >= 0 or \
                ical.Time.compare(instant(last), lower) <= 0:
            continue
        rows.append("|".join([event.get_uid(), show(first), show(last), status,
                              event.get_summary() or ""]))
    event = root.get_next_component(ical.ComponentKind.VEVENT_COMPONENT)
print("\n".join(sorted(rows)))
