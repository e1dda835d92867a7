/* ccreport site pages: moving around (templates/base.html).
   - A link to a folded part (<details>, such as an appendix part) or to anything inside one opens
     it, on a click and when the page is opened at such a fragment; CSS :target shows a targeted
     appendix part without this script.
   - The page's contents are unfolded on a wide screen (the stylesheet's breakpoint) and folded
     above the text on a narrow one.
   - The back-to-top link shows once the reader has scrolled a screen down.
   No request to any other host, no storage. */
(function () {
  "use strict";
  var WIDE = "(min-width: 1100px)";

  function openAround(id) {
    if (!id) { return null; }
    var target = document.getElementById(id);
    if (!target) { return null; }
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS" && !node.open) { node.open = true; }
    }
    return target;
  }

  function fragment(href) {
    var hash = href.indexOf("#");
    if (hash < 0) { return null; }
    try { return decodeURIComponent(href.slice(hash + 1)); } catch (e) { return href.slice(hash + 1); }
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest ? event.target.closest("a[href*='#']") : null;
    if (!link || link.origin !== location.origin || link.pathname !== location.pathname) { return; }
    var target = openAround(fragment(link.getAttribute("href")));
    if (target && link.closest(".toc-fold") && !window.matchMedia(WIDE).matches) {
      link.closest(".toc-fold").open = false;  // a narrow screen: fold the contents away again
    }
  });

  function openAtHash() {
    var target = openAround(fragment(location.hash));
    if (target) { target.scrollIntoView(); }
  }
  window.addEventListener("hashchange", openAtHash);

  function init() {
    var fold = document.querySelector(".page-toc .toc-fold");
    if (fold && window.matchMedia(WIDE).matches) { fold.open = true; }
    if (location.hash) { openAtHash(); }
    var back = document.querySelector(".back-to-top");
    if (back) {
      var place = function () {
        back.classList.toggle("is-hidden", window.scrollY < window.innerHeight);
      };
      place();
      window.addEventListener("scroll", place, { passive: true });
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
