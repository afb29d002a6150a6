/* talkpages: small enhancements on top of pages that work without JavaScript.
   - a talk's time in the visitor's own zone, when it differs from the event's;
   - the lists kept true to the clock between builds: a talk that is over moves from
     Upcoming to Past, one under way says so, the "Next talk" card counts down;
   - a talk page's primary action following the talk's life: Register, Add to
     calendar, Join or Watch live, the recording;
   - the subscribe menu: opened by its address (#subscribe), the feed's address copied;
   - a recording's player, or the slides, loaded only when the visitor asks for them;
   - the light or dark theme the visitor chooses, kept for their next visits.
   The index's filter is filter.js, which only the index loads; a talk page's share row
   is share.js, which only talk pages load. */
(function () {
  "use strict";

  /* What the page says, in the site's language: the build puts the site's translations
     of the texts marked _("…") in TALKPAGES_MESSAGES, before each script that says them
     (a plural one as CLDR's categories: Intl.PluralRules picks); English needs none.
     Read when a text is asked for: filter.js, after this script, adds its own. */
  var LANG = document.documentElement.lang || undefined;
  function said(text) { return (window.TALKPAGES_MESSAGES || {})[text]; }
  function _(text) { var found = said(text); return typeof found === "string" ? found : text; }
  function ngettext(one, other, count) {
    var forms = said(one), text = count === 1 ? one : other;
    if (forms && typeof forms === "object") {
      text = forms[new Intl.PluralRules(LANG).select(count)] || forms.other || text;
    }
    return text.replace("%(num)d", count);
  }
  window.talkpagesText = { _: _, ngettext: ngettext };  /* for filter.js */

  /* ---- Local time: the event's zone stays the reference; this adds the visitor's. ---- */
  function offsetOf(iso) {  /* minutes east of UTC written in an ISO 8601 date-time */
    var m = /([+-])(\d\d):?(\d\d)$/.exec(iso);
    if (!m) return /Z$/i.test(iso) ? 0 : null;
    return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  }

  var formats = null;  /* made once a page, on first need: a formatter is costly to make */

  function localFormats() {
    /* CLDR's patterns of the page's language, as the build writes the event's time
       (formatting.py): the day as "MMMEd" (the event's line above says the year), the
       hours with the language's clock, the range of a day as CLDR's interval, the zone
       by its short name or offset, and by its city ("New York"): a short name alone
       can be ambiguous ("CST"). Short, so that it takes the lines kept for it. */
    if (!formats) {
      var moment = new Intl.DateTimeFormat(LANG, { weekday: "short", day: "numeric",
        month: "short", hour: "numeric", minute: "2-digit", timeZoneName: "short" });
      var zone = moment.resolvedOptions().timeZone;  /* "UTC" is named by the time itself */
      formats = { moment: moment,
        name: /^(UTC|Etc\/)/.test(zone) ? "" : zone.split("/").pop().replace(/_/g, " ") };
    }
    return formats;
  }

  function showLocalTime(node) {
    var start = new Date(node.dataset.start), end = new Date(node.dataset.end);
    if (isNaN(start) || isNaN(end)) return;
    var same = offsetOf(node.dataset.start) === -start.getTimezoneOffset() &&
      offsetOf(node.dataset.end) === -end.getTimezoneOffset();
    if (same) return;
    var f = localFormats(), moment = f.moment;
    if (node.hasAttribute("data-brief")) {  /* a list row: the start, on one line */
      node.textContent = _("Your time: %(time)s").replace("%(time)s", moment.format(start));
      node.hidden = false;
      return;
    }
    var text = moment.formatRange ? moment.formatRange(start, end)
      : moment.format(start) + " \u2013 " + moment.format(end);
    node.textContent = f.name ? _("Your time (%(zone)s): %(time)s").replace("%(zone)s", f.name)
      .replace("%(time)s", text) : _("Your time: %(time)s").replace("%(time)s", text);
    node.hidden = false;
  }

  /* ---- The schedule: a page is built once and read for weeks. Upcoming rows carry
     their instants (data-start, data-end; data-until for a series); a talk that is over
     moves to Past, one under way says "Happening now", the card counts down. ---- */
  var MINUTE = 60000, DAY = 86400000;
  var LIVE_EARLY = 15 * MINUTE;  /* a meeting opens before the talk: content/lifecycle.py */

  function instant(text) {  /* an ISO instant; "never" (a series with no end): Infinity */
    var time = Date.parse(text);
    return isNaN(time) ? Infinity : time;
  }

  var phrases = null;  /* CLDR's relative phrases in the page's language, made on first need */

  function relative(start, end, now) {  /* "in 8 days", "tomorrow", in the visitor's own days */
    phrases = phrases || new Intl.RelativeTimeFormat(LANG, { numeric: "auto" });
    var minutes = Math.max(1, Math.round((start - now) / MINUTE));
    if (minutes < 60) return phrases.format(minutes, "minute");
    var from = new Date(now), to = new Date(start);
    var days = Math.round((Date.UTC(to.getFullYear(), to.getMonth(), to.getDate()) -
      Date.UTC(from.getFullYear(), from.getMonth(), from.getDate())) / DAY);
    if (days === 0) return phrases.format(Math.round(minutes / 60), "hour");
    if (days < 60) return phrases.format(days, "day");
    var months = Math.round(days / 30.44);
    return months < 24 ? phrases.format(months, "month") : phrases.format(Math.round(days / 365.25), "year");
  }

  function pastList(box, year) {  /* the list of `year` under Past talks, made if need be */
    var past = box.querySelector("section.past");
    if (!past) {
      past = document.createElement("section");
      past.className = "past";
      past.setAttribute("aria-labelledby", "past");
      var title = document.createElement("h2");
      title.id = "past";
      title.textContent = _("Past talks");
      past.appendChild(title);
      box.appendChild(past);
    }
    var empty = past.querySelector(":scope > .empty");
    if (empty) empty.remove();
    var before = null, headings = past.querySelectorAll(":scope > h3");
    for (var i = 0; i < headings.length; i++) {
      var shown = Number(headings[i].id.replace("year-", ""));
      if (shown === year) return headings[i].nextElementSibling;
      if (shown < year) { before = headings[i]; break; }
    }
    var heading = document.createElement("h3");
    heading.id = "year-" + year;
    if (box.dataset.years) {
      var link = document.createElement("a");
      link.href = box.dataset.years + year + "/";
      link.textContent = year;
      heading.appendChild(link);
    } else {
      heading.textContent = year;
    }
    var list = document.createElement("ol");
    list.className = "talk-list";
    past.insertBefore(heading, before);
    past.insertBefore(list, before);
    return list;
  }

  function moveToPast(box, row) {  /* newest first: before the first row that began earlier */
    var when = row.querySelector(".talk-date");
    when.textContent = when.dataset.short;
    row.querySelectorAll(".live, .local-time").forEach(function (node) { node.remove(); });
    var list = pastList(box, Number(row.dataset.year));
    var start = instant(row.dataset.start), next = null;
    for (var i = 0; i < list.children.length && !next; i++) {
      var other = list.children[i].dataset.start;  /* rows past at the build have none */
      if (!other || instant(other) < start) next = list.children[i];
    }
    list.insertBefore(row, next);
  }

  function markLive(row, now) {  /* "Live now · Join" a little early when it can be joined */
    var join = row.dataset.join, start = instant(row.dataset.start);
    var live = !/talk--(cancelled|postponed)/.test(row.className) &&
      now >= (join ? start - LIVE_EARLY : start) && now < instant(row.dataset.end);
    var badge = row.querySelector(".live");
    if (live && !badge) {
      badge = document.createElement(join ? "a" : "strong");
      badge.className = "live";
      if (join) badge.href = join;
      badge.textContent = join ? _("Live now · Join") : _("Happening now");
      row.querySelector(".talk-title").after(badge);
    } else if (!live && badge) {
      badge.remove();
    }
  }

  function updateList(box, now) {
    var upcoming = box.querySelector("section.upcoming ol");
    if (!upcoming) return;
    Array.prototype.slice.call(upcoming.children).forEach(function (row) {
      var until = row.dataset.until ? instant(row.dataset.until) : instant(row.dataset.end);
      if (now >= until) {  /* a list without past talks (data-drop: embed/upcoming.html) */
        return box.hasAttribute("data-drop") ? row.remove() : moveToPast(box, row);
      }
      markLive(row, now);
    });
    if (!upcoming.children.length && box.dataset.empty === "hide") {
      upcoming.closest("section").remove();  /* a tag's, speaker's or year's page */
    } else if (!upcoming.children.length) {
      var empty = document.createElement("p");
      empty.className = "empty";
      empty.textContent = _("No upcoming talks yet.");
      upcoming.replaceWith(empty);
    }
  }

  function updateCard(card, box, now) {
    var row = box && box.querySelector(
      "section.upcoming .talk-item:not(.talk--cancelled):not(.talk--postponed)");
    card.hidden = !row;
    if (!row) return;
    var title = card.querySelector(".next-title"), theirs = row.querySelector(".talk-title");
    if (title.getAttribute("href") !== theirs.getAttribute("href")) {
      title.href = theirs.getAttribute("href");
      title.textContent = theirs.textContent;
      var when = card.querySelector(".next-date"), rowWhen = row.querySelector(".talk-date");
      when.setAttribute("datetime", rowWhen.getAttribute("datetime"));
      when.textContent = rowWhen.textContent;
      var meta = row.querySelector(".talk-meta").cloneNode(true);
      meta.querySelectorAll(".badge").forEach(function (badge) { badge.parentNode.remove(); });
      card.querySelector(".talk-meta").replaceWith(meta);
      var local = card.querySelector(".local-time"), rowLocal = row.querySelector(".local-time");
      if (local) local.remove();
      if (rowLocal) card.appendChild(rowLocal.cloneNode(true));
      card.dataset.start = row.dataset.start;
      card.dataset.end = row.dataset.end;
    }
    var soon = card.querySelector(".relative"), end = instant(card.dataset.end);
    var start = instant(card.dataset.start), label = card.querySelector(".next-label");
    var on = now >= start && now < end;  /* the heading says so, not "Next talk" */
    if (label) label.textContent = on ? _("Happening now") : _("Next talk");
    /* a series listed at a date now gone says nothing of its next one until rebuilt */
    soon.hidden = on || now >= end;
    soon.textContent = soon.hidden ? "" : " " + relative(start, end, now);  /* after the label */
  }

  /* ---- A talk page's primary action follows the talk's life (output/lifeview.py
     says what the page carries): Register while registration is open, Add to calendar,
     Join or Watch live from LIVE_EARLY before the start to the end, then the recording
     or "Recording coming". The rules are content/lifecycle.py's. ---- */
  function stageAt(box, now) {
    var data = box.dataset;
    if (now >= instant(data.until)) return data.after;
    var times = (data.times || "").split(" ").filter(Boolean), next = null;
    for (var i = 0; i < times.length && !next; i++) {
      var pair = times[i].split("/");
      if (instant(pair[1]) > now) next = [instant(pair[0]), instant(pair[1])];
    }
    if (next && "live" in data && now >= next[0] - LIVE_EARLY) return "live";
    var closes = data.closes ? instant(data.closes) : next ? next[0] : -Infinity;
    return "register" in data && now < closes ? "register" : "calendar";
  }

  function updateActions(box, now) {
    var stage = stageAt(box, now);
    if (stage === box.dataset.stage) return;
    box.dataset.stage = stage;
    box.querySelectorAll("[data-stages]").forEach(function (node) {
      node.hidden = node.dataset.stages.split(" ").indexOf(stage) < 0;
    });
    box.querySelectorAll("[data-lead]").forEach(function (button) {
      button.classList.toggle("outline", button.dataset.lead.split(" ").indexOf(stage) < 0);
    });
  }

  function setUpSchedule() {
    var boxes = document.querySelectorAll(".schedule");
    var card = document.querySelector(".next-talk");
    var offers = document.querySelectorAll(".add-to-calendar[data-until]");
    var actions = document.querySelectorAll(".actions[data-stage]");
    function tick() {
      var now = Date.now();
      boxes.forEach(function (box) { updateList(box, now); });
      if (card) updateCard(card, boxes[0], now);
      offers.forEach(function (offer) { offer.hidden = now >= instant(offer.dataset.until); });
      actions.forEach(function (box) { updateActions(box, now); });
    }
    tick();
    setInterval(tick, 30 * 1000);
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) tick();
    });
  }

  /* ---- Subscribe: the menu opens at its address; the feed's address is copied. ---- */
  function setUpSubscribe(menu) {
    var input = menu.querySelector("input");
    var status = menu.querySelector(".copy-status");
    if (input.hasAttribute("data-relative")) {  /* no public base_url: where the page is */
      input.value = new URL(input.value, location.href).href;
    }
    function openAtAddress() {
      if (location.hash === "#" + menu.id) menu.open = true;
    }
    openAtAddress();
    window.addEventListener("hashchange", openAtAddress);
    input.addEventListener("focus", function () { input.select(); });
    menu.querySelector(".copy-button").addEventListener("click", function () {
      function manual() {
        input.focus();
        input.select();
        status.textContent = _("Press Ctrl+C (⌘C on a Mac) to copy the address.");
      }
      if (!navigator.clipboard || !window.isSecureContext) return manual();
      navigator.clipboard.writeText(input.value).then(function () {
        status.textContent = _("Copied. Paste it into your calendar app.");
      }, manual);
    });
  }

  /* ---- Recording and slides: nothing is loaded from a player before the click. ---- */
  var PLAYERS = new RegExp("^https://(www\\.youtube-nocookie\\.com/embed/|player\\.vimeo\\.com/video/|" +
    "speakerdeck\\.com/player/|www\\.slideshare\\.net/slideshow/embed_code/key/|" +
    "docs\\.google\\.com/presentation/d/)");
  var OWN_PDF = /^[^:/?#][^:?#]*\.pdf$/i;  /* a PDF of the talk's own folder */

  function player(holder) {  /* the frame that shows holder's data-src, or null */
    var src = holder.dataset.src || "";
    var box = document.createElement("div");
    box.className = "embed-frame";
    var own = holder.dataset.kind === "pdf";  /* the site's own file: the browser's viewer */
    if (own ? !OWN_PDF.test(src) : !PLAYERS.test(src)) return null;
    var frame = document.createElement("iframe");
    frame.src = src;
    frame.title = holder.dataset.title || (own ? _("Slides") : _("Player"));
    if (own) {
      box.classList.add("pdf");
    } else {
      frame.allow = "autoplay; encrypted-media; fullscreen; picture-in-picture";
      frame.allowFullscreen = true;
      frame.referrerPolicy = "strict-origin-when-cross-origin";
    }
    box.appendChild(frame);
    return box;
  }

  function setUpPlayer(holder) {  /* a poster (a link) or a button replaced by its player */
    var trigger = holder.querySelector("[data-play]");
    if (!trigger) return;
    trigger.addEventListener("click", function (event) {
      var box = player(holder);
      if (!box) return;  /* not one we know: a poster's link is followed, a button does nothing */
      event.preventDefault();
      trigger.replaceWith(box);
      var shown = box.firstChild;
      if (shown.focus) shown.focus();
    });
  }

  /* ---- The theme: light or dark, as the system says until the visitor chooses. ----
     Two states, not three: the button says which theme is on (the stylesheet shows its
     label for each), which is all a visitor sees. A choice equal to the system's is forgotten, so clicking back returns
     the page to following the system (a "light / dark / automatic" control would ask
     people to understand a state that looks like one of the others). base.html's boot
     script applies a kept choice before the first paint. */
  var THEME_KEY = "talkpages-theme";

  function setUpThemeToggle(button) {
    var root = document.documentElement;
    var system = window.matchMedia("(prefers-color-scheme: dark)");
    function dark() {
      var chosen = root.getAttribute("data-theme");
      return chosen ? chosen === "dark" : system.matches;
    }
    button.addEventListener("click", function () {
      var wanted = dark() ? "light" : "dark";
      var followsSystem = (wanted === "dark") === system.matches;
      try {
        if (followsSystem) localStorage.removeItem(THEME_KEY);
        else localStorage.setItem(THEME_KEY, wanted);
      } catch (e) { /* storage refused: the choice holds for this page only */ }
      if (followsSystem) root.removeAttribute("data-theme");
      else root.setAttribute("data-theme", wanted);
    });
  }

  document.querySelectorAll("button.theme-toggle").forEach(setUpThemeToggle);
  document.querySelectorAll(".local-time[data-start]").forEach(showLocalTime);
  document.querySelectorAll(".recording[data-src], section.slides[data-src]").forEach(setUpPlayer);
  document.querySelectorAll("details.subscribe").forEach(setUpSubscribe);
  setUpSchedule();
})();
