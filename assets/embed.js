/* talkpages: embed/upcoming.html tells the page that frames it its height, on load and
   whenever it changes (a narrower frame, a talk that leaves the list), so that the
   frame fits it: the page around it listens for { talkpages: "height", height } and
   checks that the message comes from the site (docs: "Embed the upcoming talks on
   another site"). A height is no secret, so it goes to whichever page frames this one. */
(function () {
  "use strict";
  if (window.parent === window) return;
  var told = -1;
  function tell() {
    var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === told) return;
    told = height;
    window.parent.postMessage({ talkpages: "height", height: height }, "*");
  }
  if (window.ResizeObserver) new ResizeObserver(tell).observe(document.documentElement);
  window.addEventListener("load", tell);
  window.addEventListener("resize", tell);
  tell();
})();
