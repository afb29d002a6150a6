"""What libical (Evolution, GNOME) reads of each event beyond its times; same output as
tests/node/icaljs_props.mjs. libical 3.0 has no kind of its own for CONFERENCE: it
keeps the property, read here by its name.

Run with Debian's python3.   usage: /usr/bin/python3 libical_props.py FEED
"""

import sys

import gi

gi.require_version("ICalGLib", "3.0")
from gi.repository import ICalGLib as ical  # noqa: E402

with open(sys.argv[1], encoding="utf-8") as handle:
    root = ical.Component.new_from_string(handle.read())


def first(event, kind):
    found = event.get_first_property(kind)
    return found.get_value_as_string() if found is not None else ""


def conferences(event):
    found, prop = [], event.get_first_property(ical.PropertyKind.ANY_PROPERTY)
    while prop is not None:
        if prop.get_property_name() == "CONFERENCE":
            found.append(prop.get_value_as_string())
        prop = event.get_next_property(ical.PropertyKind.ANY_PROPERTY)
    return found


rows = []
event = root.get_first_component(ical.ComponentKind.VEVENT_COMPONENT)
while event is not None:
    description = event.get_description() or ""
    rows.append("|".join([event.get_uid(), first(event, ical.PropertyKind.URL_PROPERTY),
                          " ".join(conferences(event)), description.replace("\n", "\\n")]))
    event = root.get_next_component(ical.ComponentKind.VEVENT_COMPONENT)
print("\n".join(sorted(rows)))
