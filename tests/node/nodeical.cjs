// Occurrences of a feed as node-ical (calendar dashboards, MagicMirror) sees them.
// Same output as icaljs.mjs.   usage: node nodeical.cjs FEED.ics FROM TO
const ical = require("node-ical");
const [feedPath, from, to] = process.argv.slice(2);
const lower = new Date(`${from}T00:00:00Z`), upper = new Date(`${to}T00:00:00Z`);
const two = (n) => String(n).padStart(2, "0");
const day = (d) => `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
const show = (d, allDay) => allDay ? day(d) : d.toISOString().replace(".000Z", "Z");
const rows = [];
for (const item of Object.values(ical.sync.parseFile(feedPath))) {
  if (item.type !== "VEVENT") continue;
  const text = (v) => (v && typeof v === "object" ? v.val : v) || "";
  for (const o of ical.expandRecurringEvent(item, { from: lower, to: upper })) {
    if (o.start >= upper || o.end <= lower) continue;
    rows.push([item.uid, show(o.start, o.isFullDay), show(o.end, o.isFullDay),
               text(item.status), text(o.summary)].join("|"));
  }
}
console.log(rows.sort().join("\n"));
