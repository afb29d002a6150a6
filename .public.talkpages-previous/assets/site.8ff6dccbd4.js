/* talkpages: small enhancements on top of pages that work without JavaScript.
   - the index's filter box (shown only when <html> has the class "js");
   - a talk's time in the visitor's own zone, when it differs from the event's;
   - a video player loaded only when the visitor asks for it. */
(function () {
  "use strict";

  var fold = function (text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  };

  /* ---- The filter: narrows the list as you type; every word must match. ---- */
  function setUpFilter(form) {
    var input = form.querySelector("input");
    var status = form.querySelector("[role=status]");
    var list = document.getElementById("talks");
    var items = Array.prototype.map.call(list.querySelectorAll(".talk-item"), function (item) {
      return { node: item, text: fold(item.textContent) };
    });
    var paged = Number(form.dataset.pages) > 1;
    var pages = document.querySelector("nav.pages");
    var results = null;
    var index = null;

    function say(count, query) {
      status.textContent = !query ? "" : count === 0 ? "No talk matches “" + query + "”."
        : count === 1 ? "1 talk matches." : count + " talks match.";
    }

    function filterPage(words) {
      var shown = 0;
      items.forEach(function (item) {
        var hit = words.every(function (w) { return item.text.indexOf(w) >= 0; });
        item.node.hidden = !hit;
        if (hit) shown += 1;
      });
      list.querySelectorAll("ol").forEach(function (ol) {
        var empty = !ol.querySelector(".talk-item:not([hidden])");
        ol.hidden = empty && words.length > 0;
        var heading = ol.previousElementSibling;
        if (heading && heading.tagName === "H3") heading.hidden = ol.hidden;
      });
      list.querySelectorAll("section").forEach(function (section) {
        section.hidden = words.length > 0 && !section.querySelector(".talk-item:not([hidden])");
      });
      return shown;
    }

    function row(talk) {  /* [path, title, day, speakers, event, location, tags, status] */
      var li = document.createElement("li");
      li.className = "talk-item" + (talk[7] === "cancelled" ? " talk--cancelled" : "");
      var day = document.createElement("span");
      day.className = "talk-date";
      day.textContent = talk[2];
      var box = document.createElement("div");
      var link = document.createElement("a");
      link.className = "talk-title";
      link.href = form.dataset.root + talk[0];
      link.textContent = talk[1];
      var meta = document.createElement("p");
      meta.className = "talk-meta";
      [talk[3], talk[4], talk[5], talk[6]].forEach(function (text) {
        if (!text) return;
        var span = document.createElement("span");
        span.textContent = text;
        meta.appendChild(span);
      });
      box.append(link, meta);
      li.append(day, box);
      return li;
    }

    function filterSite(words, query) {
      if (!index) {
        index = fetch(form.dataset.index).then(function (r) { return r.json(); })
          .then(function (rows) {
            return rows.map(function (t) { return { talk: t, text: fold(t.slice(1, 7).join(" ")) }; });
          });
      }
      index.then(function (rows) {
        if (fold(input.value).split(/\s+/).filter(Boolean).join(" ") !== words.join(" ")) return;
        var hits = rows.filter(function (r) {
          return words.every(function (w) { return r.text.indexOf(w) >= 0; });
        });
        if (!results) {
          results = document.createElement("ol");
          results.className = "talk-list search-results";
          list.after(results);
        }
        results.replaceChildren.apply(results, hits.slice(0, 200).map(function (r) { return row(r.talk); }));
        results.hidden = false;
        list.hidden = true;
        if (pages) pages.hidden = true;
        say(hits.length, query);
        if (hits.length > 200) status.textContent += " The first 200 are shown.";
      }).catch(function () { say(filterPage(words), query); });
    }

    function update() {
      var query = input.value.trim();
      var words = fold(query).split(/\s+/).filter(Boolean);
      if (paged && words.length) return filterSite(words, query);
      if (results) results.hidden = true;
      list.hidden = false;
      if (pages) pages.hidden = false;
      say(filterPage(words), query);
    }

    form.addEventListener("submit", function (event) { event.preventDefault(); });
    input.addEventListener("input", update);
    var asked = new URLSearchParams(location.search).get("q");
    if (asked) { input.value = asked; update(); }
  }

  /* ---- Local time: the event's zone stays the reference; this adds the visitor's. ---- */
  function offsetOf(iso) {  /* minutes east of UTC written in an ISO 8601 date-time */
    var m = /([+-])(\d\d):?(\d\d)$/.exec(iso);
    if (!m) return /Z$/i.test(iso) ? 0 : null;
    return (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  }

  function showLocalTime(node) {
    var start = new Date(node.dataset.start), end = new Date(node.dataset.end);
    if (isNaN(start) || isNaN(end)) return;
    var same = offsetOf(node.dataset.start) === -start.getTimezoneOffset() &&
      offsetOf(node.dataset.end) === -end.getTimezoneOffset();
    if (same) return;
    var lang = document.documentElement.lang || undefined;
    var dayLang = /^en\b/i.test(lang || "") ? "en-GB" : lang;
    var days = new Intl.DateTimeFormat(dayLang, { weekday: "short", day: "numeric", month: "short", year: "numeric" });
    var day = { format: function (date) { return days.format(date).replace(/^(\S+),/, "$1"); } };
    var clock = new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    var zone = function (date) {
      var part = new Intl.DateTimeFormat(lang, { timeZoneName: "short" }).formatToParts(date)
        .filter(function (p) { return p.type === "timeZoneName"; })[0];
      return part ? part.value : "";
    };
    var text = day.format(start) + ", " + clock.format(start);
    if (day.format(start) === day.format(end)) {
      text += "\u2013" + clock.format(end) + " " + zone(end);
    } else {
      text += " \u2013 " + day.format(end) + ", " + clock.format(end) + " " + zone(end);
    }
    var name = Intl.DateTimeFormat().resolvedOptions().timeZone;
    node.textContent = "Your time" + (name ? " (" + name + ")" : "") + ": " + text;
    node.hidden = false;
  }

  /* ---- Video: nothing is loaded from YouTube or Vimeo before the click. ---- */
  var PLAYERS = /^https:\/\/(www\.youtube-nocookie\.com\/embed\/|player\.vimeo\.com\/video\/)/;

  function setUpVideo(section) {
    var play = section.querySelector(".video-play");
    if (!play || !PLAYERS.test(section.dataset.src)) return;
    play.querySelector("button").addEventListener("click", function () {
      var frame = document.createElement("iframe");
      frame.src = section.dataset.src;
      frame.title = section.dataset.title || "Video";
      frame.allow = "autoplay; encrypted-media; fullscreen; picture-in-picture";
      frame.allowFullscreen = true;
      frame.referrerPolicy = "strict-origin-when-cross-origin";
      var box = document.createElement("div");
      box.className = "video-frame";
      box.appendChild(frame);
      play.replaceWith(box);
      frame.focus();
    });
  }

  document.querySelectorAll("form.filter").forEach(setUpFilter);
  document.querySelectorAll(".local-time[data-start]").forEach(showLocalTime);
  document.querySelectorAll("section.video[data-src]").forEach(setUpVideo);
})();
