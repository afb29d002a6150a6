/* talkpages: a talk page's share row (talk.html, output/share.py): the page's canonical
   address copied, the system's share sheet where there is one, and a Mastodon post on
   the visitor's own server, named once and kept; nothing is loaded from any network
   before a click. Only talk pages load it, after site.js, whose texts it uses. */
(function () {
  "use strict";

  var _ = window.talkpagesText._;
  var MASTODON_KEY = "talkpages-mastodon";
  var HOST = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+(:\d{1,5})?$/;

  function mastodonServer(text) {  /* "mastodon.social", "@me@fosstodon.org", a URL: its host */
    var host = text.trim().toLowerCase().replace(/^https?:\/\//, "").replace(/^@?[^@\/]*@/, "");
    host = host.split("/")[0];
    return HOST.test(host) ? host : "";
  }

  function setUpShare(box) {
    var status = box.querySelector(".share-status");
    var canonical = document.querySelector('link[rel="canonical"]');
    var url = canonical ? canonical.href : location.href;
    function say(text) { status.textContent = text; }
    function offer(name, use) {
      var item = box.querySelector('[data-share="' + name + '"]');
      item.hidden = false;
      item.querySelector("button").addEventListener("click", use);
      return item.querySelector("button");
    }
    if (navigator.clipboard && window.isSecureContext) {
      offer("copy", function () {
        navigator.clipboard.writeText(url).then(function () { say(_("Link copied")); },
          function () { say(_("The link could not be copied: %(url)s").replace("%(url)s", url)); });
      });
    }
    if (navigator.share) {
      offer("native", function () {
        navigator.share({ title: box.dataset.title, url: url }).catch(function () { /* closed */ });
      });
    }
    var form = box.querySelector(".share-mastodon"), input = form.querySelector("input");
    try { input.value = localStorage.getItem(MASTODON_KEY) || ""; } catch (e) { /* refused */ }
    var toggle = offer("mastodon", function () {
      form.hidden = !form.hidden;
      toggle.setAttribute("aria-expanded", form.hidden ? "false" : "true");
      if (!form.hidden) input.focus();
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var host = mastodonServer(input.value);
      if (!host) {
        say(_("Enter your Mastodon server’s name, such as mastodon.social."));
        return input.focus();
      }
      input.value = host;
      try { localStorage.setItem(MASTODON_KEY, host); } catch (e) { /* for this page only */ }
      window.open("https://" + host + "/share?text=" +
        encodeURIComponent(box.dataset.title + " " + url), "_blank", "noopener");
    });
  }

  document.querySelectorAll("section.share").forEach(setUpShare);
})();
