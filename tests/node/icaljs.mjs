// Occurrences of a feed as Mozilla's ical.js (the parser inside Thunderbird) sees them.
// Prints one line per occurrence: UID|START|END|STATUS|SUMMARY, timed values in UTC
// ("2019-05-22T12:50:00Z"), all-day values as dates with an exclusive end.
// usage: node icaljs.mjs FEED.ics FROM TO      (FROM/TO: YYYY-MM-DD, UTC)
import ICAL from "ical.js";
import { readFileSync } from "node:fs";

const [feedPath, from, to] = process.argv.slice(2);
const calendar = new ICAL.Component(ICAL.parse(readFileSync(feedPath, "utf8")));
const zones = new Set();
for (const zone of calendar.getAllSubcomponents("vtimezone")) {
  ICAL.TimezoneService.register(zone);
  zones.add(zone.getFirstPropertyValue("tzid"));
}
const lower = ICAL.Time.fromDateTimeString(`${from}T00:00:00Z`);
const upper = ICAL.Time.fromDateTimeString(`${to}T00:00:00Z`);
const show = (t) => t.isDate ? t.toString()
  : t.convertToZone(ICAL.Timezone.utcTimezone).toString();
const rows = [];
let failed = false;
for (const component of calendar.getAllSubcomponents("vevent")) {
  for (const name of ["dtstart", "dtend", "exdate"]) {
    for (const prop of component.getAllProperties(name)) {
      const tzid = prop.getParameter("tzid");
      if (tzid && !zones.has(tzid)) { console.error(`no VTIMEZONE for ${tzid}`); failed = true; }
    }
  }
  const event = new ICAL.Event(component);
  const status = component.getFirstPropertyValue("status") || "";
  const add = (start, end) => {
    if (start.compare(upper) >= 0 || end.compare(lower) <= 0) return;
    rows.push([event.uid, show(start), show(end), status, event.summary].join("|"));
  };
  if (!event.isRecurring()) { add(event.startDate, event.endDate); continue; }
  const iterator = event.iterator();
  for (let next = iterator.next(), n = 0; next && n < 5000; next = iterator.next(), n++) {
    if (next.compare(upper) >= 0) break;
    const details = event.getOccurrenceDetails(next);
    add(details.startDate, details.endDate);
  }
}
console.log(rows.sort().join("\n"));
process.exitCode = failed ? 1 : 0;
