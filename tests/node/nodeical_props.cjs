// What node-ical reads of each event beyond its times; same output as icaljs_props.mjs.
// usage: node nodeical_props.cjs FEED.ics
const ical = require("node-ical");
const text = (v) => (v && typeof v === "object" && "val" in v ? v.val : v) || "";
const rows = [];
for (const item of Object.values(ical.sync.parseFile(process.argv[2]))) {
  if (item.type !== "VEVENT") continue;
  const conference = [].concat(item.conference || []).map(text).join(" ");
  rows.push([item.uid, text(item.url), conference,
             String(text(item.description)).replace(/\n/g, "\\n")].join("|"));
}
console.log(rows.sort().join("\n"));
