/* ccreport: the operating-condition explorer of a dataset page (docs/explorer.md).
   Reads the JSON the build embedded (ccreport/render/explorer.py), never the network.
   The rules are the decision box's (ccreport/tasks/decisions.py), at any PC(+):
   PC(+) = p r / (p r + 1 - p) with r = C(-|+)/C(+|-) (D&H 2006 Eq. 4); a ROC point's normalized
   expected cost at x is x (1 - TPR) + (1 - x) FPR (D&H 2006 Eq. 6); the choice is the first
   hybrid vertex whose closed interval [low, high] holds x; its interval is the chosen classifier's
   pointwise band interpolated linearly on its grid, or at a point prior's PC(+) the classifier's
   expected-cost interval under that prior. ES2017, no dependency. */
(function () {
  "use strict";
  var SVGNS = "http://www.w3.org/2000/svg";
  var POINT_TOLERANCE = 1e-9; // a condition this close to a point prior's PC(+) is that prior's

  function nec(x, fpr, tpr) { return x * (1 - tpr) + (1 - x) * fpr; }

  function vertexAt(table, x) {
    for (var k = 0; k < table.low.length; k++) {
      if (table.low[k] <= x && x <= table.high[k]) { return k; }
    }
    return x <= 0 ? 0 : table.low.length - 1;
  }

  function interp(xs, ys, x) {
    var n = xs.length;
    if (x <= xs[0]) { return ys[0]; }
    if (x >= xs[n - 1]) { return ys[n - 1]; }
    var lo = 0, hi = n - 1;
    while (hi - lo > 1) {
      var mid = (lo + hi) >> 1;
      if (xs[mid] <= x) { lo = mid; } else { hi = mid; }
    }
    var slope = (ys[hi] - ys[lo]) / (xs[hi] - xs[lo]);
    return slope * (x - xs[lo]) + ys[lo];
  }

  function pcFrom(p, r) {
    if (p <= 0) { return 0; }
    if (p >= 1 || r === Infinity) { return 1; }
    return p * r / (p * r + 1 - p);
  }

  function ratioFrom(p, x) {
    if (x >= 1) { return Infinity; }
    return x * (1 - p) / (p * (1 - x));
  }

  function fmt(v, digits) {
    if (v === null || v === undefined || Number.isNaN(v)) { return "\u2014"; }
    if (v === Infinity) { return "\u221e"; }
    if (v === -Infinity) { return "\u2212\u221e"; }
    if (v === 0) { return "0"; }
    return String(Number(v.toPrecision(digits || 4)));
  }

  /* The decision at PC(+) = x with class mix p (flagged share and units). */
  function decide(data, x, p, units) {
    var hybrid = data.hybrid;
    var k = vertexAt(hybrid, x);
    var ci = hybrid.member[k];
    var chosen = data.classifiers[ci];
    var fpr = hybrid.fpr[k], tpr = hybrid.tpr[k];
    var cost = nec(x, fpr, tpr);
    var point = null;
    data.points.forEach(function (pt) {
      if (point === null && Math.abs(pt.pc - x) <= POINT_TOLERANCE) { point = pt; }
    });
    var interval = null, intervalSource = null;
    if (point !== null && point.intervals[ci] !== null) {
      interval = point.intervals[ci];
      intervalSource = "prior " + point.name;
    } else if (chosen.band !== null) {
      interval = [interp(chosen.band.pc, chosen.band.lower, x), interp(chosen.band.pc, chosen.band.upper, x)];
      intervalSource = "band";
    }
    var runner = null;
    data.classifiers.forEach(function (c, i) {
      if (i === ci) { return; }
      var rk = vertexAt(c.table, x);
      var rc = nec(x, c.table.fpr[rk], c.table.tpr[rk]);
      if (runner === null || rc < runner.expected_cost) {
        runner = { index: i, classifier: c.name, vertex: rk, threshold: c.table.threshold[rk],
          fpr: c.table.fpr[rk], tpr: c.table.tpr[rk], expected_cost: rc };
      }
    });
    var significance = { tested: false, significant: false, better: null, level: null };
    if (runner !== null) {
      runner.difference = cost - runner.expected_cost;
      data.pairs.forEach(function (pair) {
        var same = (pair.a === ci && pair.b === runner.index) || (pair.b === ci && pair.a === runner.index);
        if (!same || pair.regions === null) { return; }
        significance.tested = true;
        significance.level = pair.level;
        pair.regions.forEach(function (r) {
          if (r[0] <= x && x <= r[1]) {
            significance.significant = true;
            significance.better = data.classifiers[r[2]].name;
          }
        });
      });
    }
    var beats = [];
    data.pairs.forEach(function (pair) {
      if ((pair.a !== ci && pair.b !== ci) || pair.regions === null) { return; }
      var other = pair.a === ci ? pair.b : pair.a;
      pair.regions.forEach(function (r) {
        if (r[0] <= x && x <= r[1]) {
          beats.push({ classifier: data.classifiers[other].name, better: data.classifiers[r[2]].name,
            level: pair.level });
        }
      });
    });
    var out = {
      pc: x, p_positive: p, classifier: chosen.name, classifier_index: ci,
      threshold: hybrid.threshold[k], threshold_interval: [hybrid.threshold_low[k], hybrid.threshold[k]],
      fpr: fpr, tpr: tpr, flagged_share: p * tpr + (1 - p) * fpr,
      expected_cost: cost, expected_cost_interval: interval, interval_source: intervalSource,
      pc_interval: [hybrid.low[k], hybrid.high[k]], runner_up: runner, significance: significance,
      significant_pairs: beats,
      cost_per_case: null
    };
    if (units !== null) {
      var scale = p * units.cost_fn + (1 - p) * units.cost_fp;
      out.cost_per_case = { value: cost * scale, unit: units.unit,
        interval: interval === null ? null : [interval[0] * scale, interval[1] * scale] };
    }
    return out;
  }

  function el(tag, attrs, parent) {
    var node = document.createElementNS(SVGNS, tag);
    Object.keys(attrs).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    if (parent) { parent.appendChild(node); }
    return node;
  }

  function Plot(holder, label, xLabel, yLabel, yMax) {
    var W = 400, H = 300, L = 52, R = 10, T = 10, B = 38;
    this.sx = function (v) { return L + v * (W - L - R); };
    this.sy = function (v) { return H - B - (v / yMax) * (H - T - B); };
    var svg = el("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": label,
      "class": "explorer-plot" }, holder);
    var clipId = holder.id + "-clip";
    var defs = el("defs", {}, svg);
    var clip = el("clipPath", { id: clipId }, defs);
    el("rect", { x: L, y: T, width: W - L - R, height: H - T - B }, clip);
    el("rect", { x: L, y: T, width: W - L - R, height: H - T - B, "class": "frame" }, svg);
    var self = this;
    [0, 0.25, 0.5, 0.75, 1].forEach(function (t) {
      var x = self.sx(t);
      el("line", { x1: x, x2: x, y1: H - B, y2: H - B + 4, "class": "tick" }, svg);
      el("text", { x: x, y: H - B + 15, "text-anchor": "middle" }, svg).textContent = String(t);
      var yv = t * yMax, y = self.sy(yv);
      el("line", { x1: L - 4, x2: L, y1: y, y2: y, "class": "tick" }, svg);
      el("text", { x: L - 6, y: y + 4, "text-anchor": "end" }, svg).textContent = String(Number(yv.toPrecision(3)));
    });
    el("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle" }, svg).textContent = xLabel;
    el("text", { x: 11, y: (T + H - B) / 2, "text-anchor": "middle",
      transform: "rotate(-90 11 " + (T + H - B) / 2 + ")" }, svg).textContent = yLabel;
    this.layer = el("g", { "clip-path": "url(#" + clipId + ")" }, svg);
    this.path = function (points) {
      return points.map(function (pt, i) {
        return (i ? "L" : "M") + self.sx(pt[0]).toFixed(2) + " " + self.sy(pt[1]).toFixed(2);
      }).join("");
    };
  }

  function envelopePoints(table) {
    var pts = [];
    for (var k = 0; k < table.low.length; k++) {
      if (!(table.high[k] > table.low[k])) { continue; }
      var a = table.low[k], b = table.high[k];
      var ya = nec(a, table.fpr[k], table.tpr[k]), yb = nec(b, table.fpr[k], table.tpr[k]);
      var last = pts[pts.length - 1];
      if (!last || last[0] !== a || last[1] !== ya) { pts.push([a, ya]); }
      pts.push([b, yb]);
    }
    return pts;
  }

  function Explorer(root) {
    var data = JSON.parse(root.querySelector("[data-role=explorer-data]").textContent);
    this.data = data;
    this.root = root;
    var self = this;
    var withCosts = data.points.filter(function (pt) { return pt.cost_fn !== null && pt.cost_fp !== null; });
    this.units = withCosts.length ? { cost_fn: withCosts[0].cost_fn, cost_fp: withCosts[0].cost_fp,
      unit: withCosts[0].unit } : null;
    var start = data.points.length ? data.points[0] : null;
    this.state = { p: start ? start.p_positive : data.class_mix, r: 1, x: 0, mode: "prior" };
    if (start) {
      this.state.r = start.cost_fn !== null && start.cost_fp !== null && start.cost_fp > 0
        ? start.cost_fn / start.cost_fp : ratioFrom(start.p_positive, start.pc);
    }
    this.state.x = pcFrom(this.state.p, this.state.r);
    this.defaults = { p: this.state.p, cost_fp: this.units === null ? null : this.units.cost_fp };
    if (start && Math.abs(start.pc - this.state.x) <= POINT_TOLERANCE) { this.state.x = start.pc; }
    this.inputs = Array.prototype.slice.call(root.querySelectorAll("[data-control]"));
    this.fields = {};
    Array.prototype.forEach.call(root.querySelectorAll("[data-field]"), function (f) {
      self.fields[f.getAttribute("data-field")] = f;
    });
    this.panel = root.querySelector("[data-role=decision]");
    if (this.units !== null) {
      Array.prototype.forEach.call(root.querySelectorAll("[data-role=units], [data-role=units-row]"),
        function (n) { n.hidden = false; });
      root.querySelector("[data-role=unit]").textContent = this.units.unit;
    }
    this.draw();
    this.inputs.forEach(function (input) {
      input.addEventListener("input", function () { self.fromInput(input); });
    });
    window.addEventListener("hashchange", function () { self.fromFragment(); });
    root.hidden = false;
    Array.prototype.forEach.call(root.querySelectorAll("h2[id]"), function (h) {
      // the page's contents list this heading hidden until the block is shown (page_nav.py)
      Array.prototype.forEach.call(document.querySelectorAll(".page-toc a"), function (a) {
        if (a.getAttribute("href") === "#" + h.id) { a.parentNode.hidden = false; }
      });
    });
    if (!this.fromFragment()) { this.update(false); }
  }

  Explorer.prototype.draw = function () {
    var data = this.data, uid = this.root.id;
    var yMax = 0.5;
    data.classifiers.forEach(function (c) {
      if (c.band !== null) { c.band.upper.forEach(function (u) { if (u > yMax) { yMax = u; } }); }
    });
    yMax = Math.min(1, Math.ceil(yMax * 10) / 10);
    var costHolder = this.root.querySelector("[data-role=cost-view]");
    costHolder.id = uid + "-cost";
    var cost = new Plot(costHolder, "Cost curves of dataset " + data.dataset + " with the chosen PC(+)",
      "PC(+)", "normalized expected cost", yMax);
    var rocHolder = this.root.querySelector("[data-role=roc-view]");
    rocHolder.id = uid + "-roc";
    var roc = new Plot(rocHolder, "ROC curves of dataset " + data.dataset + " with the chosen point",
      "false positive rate", "true positive rate", 1);
    this.cost = cost;
    this.roc = roc;
    el("path", { d: cost.path([[0, 0], [1, 1]]) + cost.path([[0, 1], [1, 0]]), "class": "trivial" }, cost.layer);
    this.envelopes = data.classifiers.map(function (c) { return cost.path(envelopePoints(c.table)); });
    this.bands = data.classifiers.map(function (c) {
      if (c.band === null) { return ""; }
      var top = c.band.pc.map(function (v, i) { return [v, c.band.upper[i]]; });
      var bottom = c.band.pc.map(function (v, i) { return [v, c.band.lower[i]]; }).reverse();
      return cost.path(top.concat(bottom)) + "Z";
    });
    this.band = el("path", { d: "", "class": "band" }, cost.layer);
    this.envelopes.forEach(function (d) { el("path", { d: d, "class": "other" }, cost.layer); });
    el("path", { d: cost.path(envelopePoints(data.hybrid)), "class": "hybrid" }, cost.layer);
    this.runnerLine = el("path", { d: "", "class": "runner" }, cost.layer);
    this.chosenLine = el("path", { d: "", "class": "chosen" }, cost.layer);
    this.marker = el("line", { y1: cost.sy(0), y2: cost.sy(yMax), "class": "marker" }, cost.layer);
    this.dot = el("circle", { r: 4, "class": "dot" }, cost.layer);
    this.rocCurves = data.classifiers.map(function (c) { return roc.path(c.roc); });
    this.hulls = data.classifiers.map(function (c) {
      var pts = [];
      for (var k = 0; k < c.table.fpr.length; k++) { pts.push([c.table.fpr[k], c.table.tpr[k]]); }
      return roc.path(pts);
    });
    el("path", { d: roc.path([[0, 0], [1, 1]]), "class": "trivial" }, roc.layer);
    this.hulls.forEach(function (d) { el("path", { d: d, "class": "other" }, roc.layer); });
    this.rocLine = el("path", { d: "", "class": "roc-curve" }, roc.layer);
    this.hullLine = el("path", { d: "", "class": "chosen" }, roc.layer);
    this.iso = el("path", { d: "", "class": "iso" }, roc.layer);
    this.rocDot = el("circle", { r: 4, "class": "dot" }, roc.layer);
  };

  Explorer.prototype.fromInput = function (input) {
    var kind = input.getAttribute("data-control");
    var v = Number(input.value);
    if (input.value === "" || !Number.isFinite(v)) { return; }
    var s = this.state, u = this.units;
    if (kind === "prior") {
      if (v < 0 || v > 1) { return; }
      s.p = v; s.mode = "prior"; s.x = pcFrom(s.p, s.r);
    } else if (kind === "ratio" || kind === "log-ratio") {
      var r = kind === "ratio" ? v : Math.pow(10, v);
      if (!(r >= 0)) { return; }
      s.r = r; s.mode = "prior"; s.x = pcFrom(s.p, s.r);
      if (u !== null) { u.cost_fn = s.r * u.cost_fp; }
    } else if (kind === "pc") {
      if (v < 0 || v > 1) { return; }
      this.setPc(v);
    } else if (kind === "cost_fn" || kind === "cost_fp") {
      if (v < 0 || u === null) { return; }
      u[kind] = v;
      if (!(u.cost_fp > 0)) { return; }
      s.r = u.cost_fn / u.cost_fp; s.mode = "prior"; s.x = pcFrom(s.p, s.r);
    }
    this.update(true, input);
  };

  Explorer.prototype.setPc = function (x) {
    var s = this.state;
    if (!(s.p > 0 && s.p < 1)) { s.p = this.data.class_mix; }
    s.x = x; s.mode = "pc"; s.r = ratioFrom(s.p, x);
    if (this.units !== null) { this.units.cost_fn = s.r * this.units.cost_fp; }
  };

  Explorer.prototype.fromFragment = function () {
    var hash = window.location.hash.replace(/^#/, "");
    if (!/(^|&)(pc|prior|ratio)=/.test(hash)) { return false; }
    var q = new URLSearchParams(hash), s = this.state;
    var pc = Number(q.get("pc")), p = Number(q.get("prior")), r = Number(q.get("ratio"));
    var cfp = Number(q.get("cfp"));
    if (this.units !== null) {
      this.units.cost_fp = q.has("cfp") && cfp > 0 ? cfp : this.defaults.cost_fp;
    }
    if (q.has("pc") && pc >= 0 && pc <= 1) {
      s.p = q.has("prior") && p > 0 && p < 1 ? p : this.defaults.p;
      this.setPc(pc);
    } else if (q.has("prior") && q.has("ratio") && p >= 0 && p <= 1 && r >= 0) {
      s.p = p; s.r = r; s.mode = "prior"; s.x = pcFrom(p, r);
      if (this.units !== null) { this.units.cost_fn = r * this.units.cost_fp; }
    } else {
      return false;
    }
    this.update(false);
    return true;
  };

  Explorer.prototype.fragment = function () {
    var s = this.state, u = this.units;
    var hash = s.mode === "pc" ? "#pc=" + s.x + (s.p !== this.defaults.p ? "&prior=" + s.p : "")
      : "#prior=" + s.p + "&ratio=" + s.r;
    return u !== null && u.cost_fp !== this.defaults.cost_fp ? hash + "&cfp=" + u.cost_fp : hash;
  };

  Explorer.prototype.update = function (fromUser, source) {
    var s = this.state, u = this.units;
    this.inputs.forEach(function (input) {
      if (input === source) { return; }
      var kind = input.getAttribute("data-control"), v;
      if (kind === "prior") { v = s.p; }
      else if (kind === "ratio") { v = s.r; }
      else if (kind === "log-ratio") { v = s.r > 0 ? Math.log10(s.r) : -Infinity; }
      else if (kind === "pc") { v = s.x; }
      else if (u !== null) { v = u[kind]; }
      if (v === undefined) { return; }
      if (input.type === "range") {
        input.value = String(Math.min(Number(input.max), Math.max(Number(input.min), v)));
      } else {
        input.value = Number.isFinite(v) ? String(Number(v.toPrecision(6))) : "";
      }
    });
    var dec = decide(this.data, s.x, s.p, u);
    this.render(dec);
    if (fromUser && window.history && window.history.replaceState) {
      window.history.replaceState(null, "", this.fragment());
    }
  };

  Explorer.prototype.render = function (dec) {
    var f = this.fields, s = this.state, data = this.data, self = this;
    var percent = data.level === null ? "" : Math.round(data.level * 100) + "% ";
    f.condition.textContent = "PC(+) = " + fmt(dec.pc) + " (p(+) = " + fmt(s.p) +
      ", C(\u2212|+)/C(+|\u2212) = " + fmt(s.r) + ")";
    f.choice.textContent = dec.classifier;
    var t = dec.threshold, lo = dec.threshold_interval[0];
    f.threshold.textContent = t === null
      ? "none: flag nobody (any cut-off above " + fmt(lo, 6) + ")"
      : fmt(t, 6) + " (any cut-off in (" + (lo === null ? "\u2212\u221e" : fmt(lo, 6)) + ", " + fmt(t, 6) +
        "] flags the same cases)";
    f.rates.textContent = "TPR " + fmt(dec.tpr) + ", FPR " + fmt(dec.fpr);
    f.flagged.textContent = fmt(100 * dec.flagged_share, 3) + "% of cases";
    var iv = dec.expected_cost_interval;
    var source = dec.interval_source === "band"
      ? percent + "pointwise band, linear between grid points"
      : dec.interval_source === null ? "" : percent + "interval under the " + dec.interval_source;
    f.cost.textContent = fmt(dec.expected_cost) + " normalized" +
      (iv === null ? " (no interval computed)" : " [" + fmt(iv[0]) + ", " + fmt(iv[1]) + "] (" + source + ")");
    if (dec.cost_per_case !== null) {
      var pc = dec.cost_per_case;
      f.cost_units.textContent = fmt(pc.value) + " " + pc.unit +
        (pc.interval === null ? "" : " [" + fmt(pc.interval[0]) + ", " + fmt(pc.interval[1]) + "]");
    }
    var ru = dec.runner_up;
    f.runner_up.textContent = ru === null ? "none (one classifier)" : ru.classifier + " at threshold " +
      (ru.threshold === null ? "none (flag nobody)" : fmt(ru.threshold, 6)) + ", expected cost " +
      fmt(ru.expected_cost) + " (difference " + fmt(ru.difference) + ")";
    var sig = dec.significance;
    f.significance.textContent = ru === null ? "\u2014" : !sig.tested
      ? "this pair was not tested"
      : sig.significant
        ? "significant: " + sig.better + " is cheaper here (family-wise " + Math.round(sig.level * 100) + "%)"
        : "not significant here (family-wise " + Math.round(sig.level * 100) + "%)";
    var wins = dec.significant_pairs.map(function (w) {
      return w.better === dec.classifier ? "cheaper than " + w.classifier : w.better + " cheaper";
    });
    if (wins.length) {
      f.significance.textContent += "; family-wise significant here: " + dec.classifier + " " +
        wins.join(", ");
    }
    f.range.textContent = "for PC(+) in [" + fmt(dec.pc_interval[0]) + ", " + fmt(dec.pc_interval[1]) + "]";
    this.panel.setAttribute("data-decision", JSON.stringify(dec));
    var ci = dec.classifier_index;
    this.band.setAttribute("d", this.bands[ci]);
    this.chosenLine.setAttribute("d", this.envelopes[ci]);
    this.runnerLine.setAttribute("d", ru === null ? "" : this.envelopes[ru.index]);
    var mx = this.cost.sx(dec.pc);
    this.marker.setAttribute("x1", mx);
    this.marker.setAttribute("x2", mx);
    this.dot.setAttribute("cx", mx);
    this.dot.setAttribute("cy", this.cost.sy(dec.expected_cost));
    this.rocLine.setAttribute("d", this.rocCurves[ci]);
    this.hullLine.setAttribute("d", this.hulls[ci]);
    /* iso-performance line: x (1 - TPR) + (1 - x) FPR constant, direction (x, 1 - x) */
    var a = [dec.fpr - 2 * dec.pc, dec.tpr - 2 * (1 - dec.pc)], b = [dec.fpr + 2 * dec.pc, dec.tpr + 2 * (1 - dec.pc)];
    this.iso.setAttribute("d", this.roc.path([a, b]));
    this.rocDot.setAttribute("cx", this.roc.sx(dec.fpr));
    this.rocDot.setAttribute("cy", this.roc.sy(dec.tpr));
    self.last = dec;
  };

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-explorer]"), function (root) {
      root.explorer = new Explorer(root);
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
