// What ical.js (Thunderbird's parser) reads of each event beyond its times: its page
// (URL), its meetings (CONFERENCE, RFC 7986) and its DESCRIPTION.
// Prints one line per event: UID|URL|CONFERENCE values, space-separated|DESCRIPTION,
// its line breaks as "\n".       usage: node icaljs_props.mjs FEED.ics
import ICAL from "ical.js";
import { readFileSync } from "node:fs";

const calendar = new ICAL.Component(ICAL.parse(readFileSync(process.argv[2], "utf8")));
const rows = calendar.getAllSubcomponents("vevent").map((event) => [
  event.getFirstPropertyValue("uid"), event.getFirstPropertyValue("url") || "",
  event.getAllProperties("conference").map((p) => p.getFirstValue()).join(" "),
  (event.getFirstPropertyValue("description") || "").replace(/\n/g, "\\n"),
].join("|"));
console.log(rows.sort().join("\n"));
