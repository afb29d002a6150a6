/* talkpages: the index's filter, loaded by the index only (site.js is every page's).
   The form is in the page but shown only when <html> has the class "js": without
   JavaScript the list stands as it was built.
   - words narrow the list: each must be in a talk's title, speakers, event, place or
     tags, regardless of case and accents; a tag, a year and "Upcoming only" narrow it
     further;
   - the address keeps what is asked (?q=, ?tag=, ?year=, ?upcoming=1), so a link shows
     the same talks; values the page does not offer are ignored;
   - on an index of several pages, the filter searches every talk (search.json, fetched
     once) and lists the matches as the index does: upcoming (soonest first) and past
     (newest first), by the reader's clock;
   - on a phone the form waits behind its "Filter" button, opened by it, or at once when
     the address asks for something.
   Text from the address or from search.json goes into the page as text, never as
   markup: nodes are made one by one, and their text set with textContent. */
(function () {
  "use strict";

  /* What the page says, in the site's language: site.js's, which every page loads
     before this script (both are deferred, site.js first in the page). */
  var _ = window.talkpagesText._, ngettext = window.talkpagesText.ngettext;

  var LIMIT = 200;  /* matches of search.json shown at once */
  var LONGEST = 200;  /* characters of ?q= read */
  var PARAMS = ["q", "tag", "year", "language", "upcoming"];

  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  /* The slug of a tag's or speaker's page, as search.json leaves it out: the build
     spells out every slug this does not give (sitefiles.derived_slug). */
  function derivedSlug(name) {
    return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  }

  function nameAndSlug(entry) {  /* a row's speaker or tag: [name, slug] */
    return typeof entry === "string" ? [entry, derivedSlug(entry)] : entry;
  }

  function choose(select, value) {  /* only a value the select offers */
    if (!select || !value) return;
    var offered = Array.prototype.some.call(select.options, function (o) {
      return o.value && o.value === value;
    });
    if (offered) select.value = value;
  }

  function element(name, className, text) {
    var node = document.createElement(name);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function link(href, text, className) {
    var a = element("a", className, text);
    a.href = href;
    return a;
  }

  /* ---- The talks in the page: what each says, its tags, its year, upcoming or not. ---- */
  function pageRows(list) {
    return Array.prototype.map.call(list.querySelectorAll(".talk-item"), function (item) {
      var tags = Array.prototype.map.call(item.querySelectorAll("a.tag"), function (a) {
        var m = /tags\/([^\/?#]+)\/?$/.exec(a.getAttribute("href") || "");
        try { return m ? decodeURIComponent(m[1]) : ""; } catch (e) { return ""; }
      });
      var spoken = item.querySelector(".talk-language");
      return { node: item, text: fold(item.textContent), tags: tags,
        language: spoken ? spoken.dataset.language : "" };
    });
  }

  function yearOf(item) {  /* an upcoming row says it; a past one is under its year */
    if (item.dataset.year) return item.dataset.year;
    var heading = item.parentNode.previousElementSibling;
    return heading && heading.tagName === "H3" ? heading.id.replace("year-", "") : "";
  }

  /* ---- The talks of search.json: a row is [path, title, day, line, start, length,
     speakers, event, location, tags, status, year, language] and `until` for a series (null:
     never); `day` and `line` are a past and an upcoming row's dates as the build wrote
     them in the page's language; instants and lengths in seconds (sitefiles.search_row). ---- */
  function indexRows(rows) {
    return rows.map(function (row) {
      var speakers = row[6].map(nameAndSlug), tags = row[9].map(nameAndSlug);
      var text = [row[1], row[2], row[7], row[8]]
        .concat(speakers.map(function (s) { return s[0]; }), tags.map(function (t) { return t[0]; }));
      var start = row[4] * 1000, end = (row[4] + row[5]) * 1000;
      return {
        row: row, speakers: speakers, tags: tags.map(function (t) { return t[1]; }),
        names: tags.map(function (t) { return t[0]; }), text: fold(text.join(" ")),
        year: String(row[11]), language: row[12], start: start, end: end,
        until: row.length > 13 ? (row[13] === null ? Infinity : row[13] * 1000) : end
      };
    });
  }

  function matches(a, talk) {  /* a: what is asked (setUpFilter's `ask`) */
    return a.words.every(function (w) { return talk.text.indexOf(w) >= 0; }) &&
      (!a.tag || talk.tags.indexOf(a.tag) >= 0) && (!a.year || talk.year === a.year) &&
      (!a.language || (talk.language || a.own) === a.language);
  }

  function setUpFilter(form) {
    var input = form.querySelector("input[type=search]");
    var tag = form.querySelector("select[name=tag]");
    var year = form.querySelector("select[name=year]");
    var language = form.querySelector("select[name=language]");
    var upcoming = form.querySelector("input[name=upcoming]");
    var status = form.querySelector("[role=status]");
    var clear = form.querySelector(".filter-clear");
    var toggle = form.querySelector(".filter-toggle");  /* a phone's "Filter" */
    var list = document.getElementById("talks");
    var pages = document.querySelector("nav.pages");
    var root = form.dataset.root || "";
    var own = language ? language.dataset.own : "";  /* the site's: a talk that says none */
    var paged = Number(form.dataset.pages) > 1;
    var rows = pageRows(list);
    var results = null, index = null, asked = 0;

    function ask() {
      var query = input.value.trim();
      var a = { query: query, words: fold(query).split(/\s+/).filter(Boolean),
        tag: tag ? tag.value : "", year: year ? year.value : "",
        language: language ? language.value : "", own: own,
        upcoming: !!(upcoming && upcoming.checked) };
      a.active = a.words.length > 0 || !!a.tag || !!a.year || !!a.language || a.upcoming;
      return a;
    }

    function readAddress() {
      var params = new URLSearchParams(location.search);
      input.value = (params.get("q") || "").slice(0, LONGEST);
      var named = params.get("tag") || "";  /* the slug; a tag's name will do */
      choose(tag, named);
      if (tag && !tag.value && named) {  /* by its name, as the page spells it: C++ is not C */
        var wanted = fold(named);
        Array.prototype.some.call(tag.options, function (o) {
          if (!o.value || fold(o.dataset.name || "") !== wanted) return false;
          tag.value = o.value;
          return true;
        });
      }
      choose(year, params.get("year"));
      choose(language, params.get("language"));
      if (upcoming) upcoming.checked = params.get("upcoming") === "1";
    }

    function writeAddress(a) {
      var params = new URLSearchParams(location.search);
      var values = { q: a.query, tag: a.tag, year: a.year, language: a.language,
        upcoming: a.upcoming ? "1" : "" };
      PARAMS.forEach(function (name) {
        if (values[name]) params.set(name, values[name]); else params.delete(name);
      });
      var search = params.toString();
      var address = location.pathname + (search ? "?" + search : "") + location.hash;
      if (address === location.pathname + location.search + location.hash) return;
      try { history.replaceState(history.state, "", address); } catch (e) { /* file: pages */ }
    }

    function say(count, a, more) {
      if (clear) clear.hidden = !a.active;
      if (!a.active) { status.textContent = ""; return; }
      status.textContent = count > 0 ? ngettext("%(num)d talk matches.", "%(num)d talks match.", count)
        : a.words.length && !a.tag && !a.year && !a.language && !a.upcoming
        ? _("No talk matches “%(words)s”.").replace("%(words)s", a.query)
        : _("No talk matches these filters.");
      if (more) status.textContent += " " + _("The first %(num)d are shown.").replace("%(num)d", LIMIT);
    }

    function filterPage(a) {
      var shown = 0;
      rows.forEach(function (talk) {
        var hit = matches(a, { text: talk.text, tags: talk.tags, year: yearOf(talk.node),
          language: talk.language }) &&
          !(a.upcoming && !talk.node.closest("section.upcoming"));
        talk.node.hidden = !hit;
        if (hit) shown += 1;
      });
      list.querySelectorAll("ol").forEach(function (ol) {
        ol.hidden = a.active && !ol.querySelector(".talk-item:not([hidden])");
        var heading = ol.previousElementSibling;
        if (heading && heading.tagName === "H3") heading.hidden = ol.hidden;
      });
      list.querySelectorAll("section").forEach(function (section) {
        section.hidden = a.active && !section.querySelector(".talk-item:not([hidden])");
      });
      return shown;
    }

    function row(talk, coming, now) {
      var r = talk.row;
      var li = element("li", "talk-item" + (r[10] === "cancelled" || r[10] === "postponed"
        ? " talk--" + r[10] : ""));
      var when = element("time", "talk-date", coming ? r[3] : r[2]);
      when.dateTime = new Date(talk.start).toISOString();
      var summary = element("div", "talk-summary");
      summary.appendChild(link(root + r[0], r[1], "talk-title"));
      if (li.className !== "talk-item") {
        summary.append(" ", element("strong", "status", r[10] === "cancelled" ? _("Cancelled") : _("Postponed")));
      } else if (coming && now >= talk.start && now < talk.end) {
        summary.append(" ", element("strong", "live", _("Happening now")));
      }
      var meta = element("p", "talk-meta");
      if (talk.speakers.length) {
        var people = element("span");
        talk.speakers.forEach(function (s, i) {
          if (i) people.append(", ");
          people.appendChild(link(root + "speakers/" + encodeURIComponent(s[1]) + "/", s[0]));
        });
        meta.appendChild(people);
      }
      [r[7], r[8]].forEach(function (text) { if (text) meta.appendChild(element("span", "", text)); });
      var spoken = language && r[12] && Array.prototype.find.call(language.options, function (o) {
        return o.value === r[12];
      });
      if (spoken) {  /* given in another language than the site's: its name, as the page has it */
        var badge = element("span", "talk-language", spoken.dataset.name);
        badge.dataset.language = r[12];
        meta.appendChild(badge);
      }
      summary.appendChild(meta);
      if (talk.tags.length) {
        var tags = element("p", "talk-tags");
        talk.tags.forEach(function (slug, i) {
          if (i) tags.append(" ");
          tags.appendChild(link(root + "tags/" + encodeURIComponent(slug) + "/", talk.names[i], "tag"));
        });
        summary.appendChild(tags);
      }
      li.append(when, summary);
      return li;
    }

    function section(title, talks, coming, now) {
      var box = element("section", coming ? "upcoming" : "past");
      var items = element("ol", "talk-list");
      talks.forEach(function (talk) { items.appendChild(row(talk, coming, now)); });
      box.append(element("h2", "", title), items);
      return box;
    }

    function show(found, a) {  /* upcoming soonest first, then past newest first */
      var now = Date.now();
      var coming = found.filter(function (t) { return now < t.until; })
        .sort(function (x, y) { return x.start - y.start; });
      var past = a.upcoming ? [] : found.filter(function (t) { return now >= t.until; })
        .sort(function (x, y) { return y.start - x.start; });
      var count = coming.length + past.length;
      coming = coming.slice(0, LIMIT);
      past = past.slice(0, LIMIT - coming.length);
      if (!results) {
        results = element("div", "search-results");
        list.after(results);
      }
      results.replaceChildren();
      if (coming.length) results.appendChild(section(_("Upcoming"), coming, true, now));
      if (past.length) results.appendChild(section(_("Past talks"), past, false, now));
      results.hidden = false;
      list.hidden = true;
      if (pages) pages.hidden = true;
      say(count, a, count > LIMIT);
    }

    function filterSite(a) {
      var mine = ++asked;
      if (!index) {
        index = fetch(form.dataset.index).then(function (r) {
          if (!r.ok) throw new Error(r.status);
          return r.json();
        }).then(indexRows);
      }
      index.then(function (talks) {
        if (mine === asked) show(talks.filter(function (t) { return matches(a, t); }), a);
      }).catch(function () {  /* no search.json: this page's talks, at least */
        if (mine === asked) showPage(a);
      });
    }

    function showPage(a) {
      if (results) results.hidden = true;
      list.hidden = false;
      if (pages) pages.hidden = false;
      say(filterPage(a), a);
    }

    function update(keep) {
      var a = ask();
      if (!keep) writeAddress(a);
      if (paged && a.active) return filterSite(a);
      asked += 1;  /* an answer of search.json still on its way is not shown */
      showPage(a);
    }

    function open(shown) {
      form.classList.toggle("filter--open", shown);
      if (toggle) toggle.setAttribute("aria-expanded", shown ? "true" : "false");
    }

    form.addEventListener("submit", function (event) { event.preventDefault(); });
    if (toggle) toggle.addEventListener("click", function () {
      var shown = !form.classList.contains("filter--open");
      open(shown);
      if (shown) input.focus();
    });
    input.addEventListener("input", function () { update(); });
    [tag, year, language, upcoming].forEach(function (control) {
      if (control) control.addEventListener("change", function () { update(); });
    });
    if (clear) clear.addEventListener("click", function () {
      input.value = "";
      if (tag) tag.value = "";
      if (year) year.value = "";
      if (language) language.value = "";
      if (upcoming) upcoming.checked = false;
      update();
      input.focus();
    });
    /* site.js moves a talk that is over from Upcoming to Past, under its year (made
       if need be): what is asked applies where the talk now is. */
    new MutationObserver(function () {
      var a = ask();
      if (a.active && !list.hidden) say(filterPage(a), a);
    }).observe(list, { childList: true, subtree: true });
    readAddress();
    if (ask().active) {  /* an address that asks for something shows what it asks */
      open(true);
      update(true);
    }
  }

  document.querySelectorAll("form.filter").forEach(setUpFilter);
})();
