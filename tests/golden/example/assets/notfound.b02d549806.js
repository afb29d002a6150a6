/* talkpages: the 404 page suggests talks by the words of the address that was not found
   (an old link, a typo, a talk renamed: /talks/kubecon-volcano-2019 finds the talk whose
   address or title has "kubecon", "volcano" and "2019"). It reads search.json, which
   every site publishes. Without JavaScript the page still links to the index. */
(function () {
  "use strict";

  var COMMON = ["index", "html", "htm", "talk", "talks", "page", "event", "events", "the",
    "and", "for", "www"];

  var fold = function (text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  };

  function words(text) {  /* the distinct words of `text`, folded, of 2 characters or more */
    var seen = {};
    return fold(text).split(/[^\p{L}\p{N}]+/u).filter(function (word) {
      if (word.length < 2 || COMMON.indexOf(word) >= 0 || seen[word]) return false;
      seen[word] = true;
      return true;
    });
  }

  function decoded(path) {
    try { return decodeURIComponent(path); } catch (e) { return path; }
  }

  /* A word of the address counts twice in the talk's own address, once in its title;
     a word of 4 letters or more also matches the start of a longer one ("kube"). */
  function score(wanted, talk) {
    var address = words(decoded(talk[0])), title = words(talk[1]);
    function has(list, word) {
      return list.some(function (w) {
        return w === word || (word.length >= 4 && w.indexOf(word) === 0);
      });
    }
    return wanted.reduce(function (total, word) {
      return total + (has(address, word) ? 2 : has(title, word) ? 1 : 0);
    }, 0);
  }

  function suggest(section) {
    var root = section.dataset.root;
    var path = decoded(location.pathname);
    if (path.indexOf(root) === 0) path = path.slice(root.length);
    var wanted = words(path);
    if (!wanted.length) return;
    fetch(root + "search.json").then(function (r) { return r.json(); }).then(function (rows) {
      var best = rows.map(function (talk) { return { talk: talk, score: score(wanted, talk) }; })
        .filter(function (hit) { return hit.score > 0; })
        .sort(function (a, b) { return b.score - a.score; })
        .slice(0, 5);
      if (!best.length) return;
      var list = section.querySelector("ul");
      best.forEach(function (hit) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        link.href = root + hit.talk[0];
        link.textContent = hit.talk[1];
        item.append(link);
        if (hit.talk[2]) {
          var when = document.createElement("span");
          when.className = "count";
          when.textContent = " (" + hit.talk[2] + ")";
          item.append(when);
        }
        list.append(item);
      });
      section.hidden = false;
    }).catch(function () { /* no suggestions: the link to the index stays */ });
  }

  document.querySelectorAll("section.suggestions[data-root]").forEach(suggest);
})();
