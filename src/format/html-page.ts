/**
 * The html report's fixed parts: its style sheet and its script. Both are constants, so the page's
 * Content-Security-Policy names them by hash, and the same input gives the same bytes. The script reads document
 * text only through textContent and JSON.parse (never innerHTML): the filters (severity and rule, kept in the
 * URL's hash so a link keeps them) and the dependency graphs (drawn as SVG when their section is opened).
 */

export const STYLE = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --panel: #f6f8fa;
  --err: #cf222e; --warn: #9a6700; --ok: #1a7f37; --link: #0969da; --focus: #0969da; --node: #ffffff;
  --cluster: #ddf4ff; --edge: #818b98; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --panel: #151b23; --err: #ff7b72;
    --warn: #d29922; --ok: #3fb950; --link: #4493f8; --focus: #4493f8; --node: #151b23; --cluster: #0c2d6b;
    --edge: #656c76; }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0 auto; max-width: 1200px; padding: 1rem 1.5rem 3rem; background: var(--bg); color: var(--fg);
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size: 1.5rem; margin: .5rem 0; } h2 { font-size: 1.2rem; margin: 0 0 .25rem; word-break: break-all; }
h3 { font-size: 1rem; margin: 1rem 0 .25rem; }
a { color: var(--link); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
table { border-collapse: collapse; width: 100%; margin: .25rem 0 .5rem; }
th, td { text-align: left; vertical-align: top; padding: .3rem .5rem; border-bottom: 1px solid var(--line); }
th { background: var(--panel); font-weight: 600; }
td.num, th.num { text-align: right; }
td { overflow-wrap: anywhere; }
td:nth-child(2) code { white-space: nowrap; }
.totals { display: flex; flex-wrap: wrap; gap: .5rem; margin: .75rem 0; padding: 0; list-style: none; }
.totals li { border: 1px solid var(--line); border-radius: 6px; padding: .4rem .8rem; background: var(--panel); }
.totals strong { font-size: 1.2rem; display: block; }
.sev-error, .bad { color: var(--err); font-weight: 600; } .sev-warning, .meh { color: var(--warn); font-weight: 600; }
.good { color: var(--ok); font-weight: 600; }
.muted { color: var(--muted); }
section.doc { border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1rem; margin: 1rem 0;
  scroll-margin-top: 4.5rem; }
section.doc h2 { scroll-margin-top: 5rem; }
#filters { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; align-items: center; gap: .75rem 1.25rem;
  padding: .6rem .8rem; margin: 1rem 0; border: 1px solid var(--line); border-radius: 8px; background: var(--panel); }
#filters fieldset { border: 0; margin: 0; padding: 0; display: flex; gap: .75rem; align-items: center; }
#filters legend { float: left; margin-right: .5rem; font-weight: 600; }
select, button { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--line); border-radius: 6px;
  padding: .2rem .5rem; }
button { cursor: pointer; }
details.graph > summary { cursor: pointer; font-weight: 600; margin: 1rem 0 .25rem; }
.graph-tools { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .25rem 0; }
.graph-view { overflow: auto; max-height: 75vh; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); }
.graph-view svg { display: block; }
.graph-info { margin: .5rem 0; padding: .5rem .75rem; border-left: 3px solid var(--line); min-height: 1.5rem; }
.graph-info dl { display: grid; grid-template-columns: max-content 1fr; gap: 0 .75rem; margin: 0; }
.graph-info dt { font-weight: 600; } .graph-info dd { margin: 0; overflow-wrap: anywhere; }
svg .node rect { fill: var(--node); stroke: var(--edge); stroke-width: 1; }
svg .node.cluster rect { fill: var(--cluster); stroke-dasharray: 4 2; }
svg .node.warn rect { stroke: var(--warn); stroke-width: 2.5; }
svg .node.err rect { stroke: var(--err); stroke-width: 3; }
svg .node.missing rect { stroke-dasharray: 2 2; }
svg .node text { fill: var(--fg); font-size: 12px; }
svg .node text.sub { fill: var(--muted); font-size: 11px; }
svg .node { cursor: pointer; outline: none; }
svg .node:focus-visible rect, svg .node.selected rect { stroke: var(--focus); stroke-width: 3.5; }
svg .edge { fill: none; stroke: var(--edge); stroke-width: 1.2; }
svg .edge.nest { stroke-dasharray: 5 3; }
svg .arrow { fill: var(--edge); }
@media print { #filters, .graph-tools { display: none; } }
`;

/** The page's script: no template literals inside, so it can sit in this one. */
export const SCRIPT = `
(function () {
  'use strict';
  var SEVERITIES = ['error', 'warning'];
  var SVG = 'http://www.w3.org/2000/svg';
  var form = document.getElementById('filters');
  var rows = Array.prototype.slice.call(document.querySelectorAll('tr.finding'));
  var docs = Array.prototype.slice.call(document.querySelectorAll('section.doc'));
  var status = document.getElementById('filter-status');
  var ruleSelect = document.getElementById('filter-rule');
  var boxes = Array.prototype.slice.call(form.querySelectorAll('input[name=severity]'));

  function readHash() {
    var state = { severity: SEVERITIES.slice(), rule: '' };
    var hash = location.hash.slice(1);
    if (hash.indexOf('=') === -1) return state;
    var params = new URLSearchParams(hash);
    var sev = params.get('severity');
    if (sev !== null) state.severity = sev.split(',').filter(function (s) { return SEVERITIES.indexOf(s) !== -1; });
    state.rule = params.get('rule') || '';
    return state;
  }
  function writeHash(state) {
    var params = new URLSearchParams();
    if (state.severity.length !== SEVERITIES.length) params.set('severity', state.severity.join(','));
    if (state.rule !== '') params.set('rule', state.rule);
    var text = params.toString();
    var url = location.href.split('#')[0] + (text === '' ? '' : '#' + text);
    try { history.replaceState(null, '', url); } catch (e) { location.hash = text; }
  }
  function formState() {
    return {
      severity: boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; }),
      rule: ruleSelect.value
    };
  }
  function apply(state) {
    boxes.forEach(function (b) { b.checked = state.severity.indexOf(b.value) !== -1; });
    ruleSelect.value = state.rule;
    if (ruleSelect.value !== state.rule) { state.rule = ''; ruleSelect.value = ''; }
    var filtering = state.severity.length !== SEVERITIES.length || state.rule !== '';
    var shown = 0;
    rows.forEach(function (row) {
      var ok = state.severity.indexOf(row.getAttribute('data-severity')) !== -1 &&
        (state.rule === '' || row.getAttribute('data-rule') === state.rule);
      row.hidden = !ok;
      if (ok) shown++;
    });
    var docsShown = 0;
    docs.forEach(function (section) {
      var own = section.querySelectorAll('tr.finding');
      var visible = section.querySelectorAll('tr.finding:not([hidden])').length;
      var none = section.querySelector('.no-match');
      if (none) none.hidden = !(own.length > 0 && visible === 0);
      var hide = filtering && visible === 0;
      section.hidden = hide;
      var row = document.getElementById('row-' + section.id);
      if (row) row.hidden = hide;
      if (!hide) docsShown++;
    });
    status.textContent = 'Showing ' + shown + ' of ' + rows.length + ' findings in ' + docsShown + ' of ' +
      docs.length + ' documents';
  }
  form.hidden = false;
  form.addEventListener('change', function () { var state = formState(); writeHash(state); apply(state); });
  form.addEventListener('submit', function (event) { event.preventDefault(); });
  document.getElementById('filter-reset').addEventListener('click', function () {
    var state = { severity: SEVERITIES.slice(), rule: '' };
    writeHash(state); apply(state);
  });
  window.addEventListener('hashchange', function () { apply(readHash()); });
  apply(readHash());

  // Links to a document scroll to it without replacing the filters in the hash.
  document.addEventListener('click', function (event) {
    var link = event.target instanceof Element ? event.target.closest('a[data-to]') : null;
    if (!link) return;
    var target = document.getElementById(link.getAttribute('data-to'));
    if (!target) return;
    event.preventDefault();
    target.hidden = false;
    var heading = target.querySelector('h2');
    target.scrollIntoView();
    if (heading) heading.focus();
  });

  function el(name, attributes, parent) {
    var node = document.createElementNS(SVG, name);
    for (var key in attributes) node.setAttribute(key, String(attributes[key]));
    if (parent) parent.appendChild(node);
    return node;
  }
  function html(name, text, parent, className) {
    var node = document.createElement(name);
    if (text !== undefined && text !== null) node.textContent = text;
    if (className) node.className = className;
    if (parent) parent.appendChild(node);
    return node;
  }
  function cut(text, max) { return text.length <= max ? text : text.slice(0, max - 1) + '\\u2026'; }

  var W = 190, H = 40, GX = 24, GY = 56, PAD = 16, COLUMNS = 8;

  function GraphView(details) {
    var source = document.getElementById(details.getAttribute('data-graph'));
    this.g = JSON.parse(source.textContent);
    this.section = details.closest('section.doc');
    this.id = details.getAttribute('data-graph');
    var body = details.querySelector('.graph-body');
    body.textContent = '';
    var g = this.g, n = g.n;
    // Back to plain columns: bom-refs spelled out, tree parents as indexes.
    for (var r = 0; r < n; r++) {
      if (typeof g.r[r] === 'number') g.r[r] = g.rp[g.r[r]] + g.a[r] + '@' + g.v[r];
      g.tp[r] = g.tp[r] === 0 ? -1 : r - g.tp[r];
    }
    this.pinned = new Uint8Array(n);
    for (var i = 0; i < g.pin.length; i++) this.pinned[g.pin[i]] = 1;
    this.severity = new Uint8Array(n);
    for (i = 0; i < g.s.length; i += 2) this.severity[g.s[i]] = g.s[i + 1];
    this.parent = new Int32Array(n).fill(-1);
    for (i = 0; i < g.p.length; i += 2) this.parent[g.p[i]] = g.p[i + 1];
    // The spanning tree: children in order, and subtree sizes (a subtree is the run of nodes after its root).
    this.children = [];
    this.roots = [];
    for (i = 0; i < n; i++) this.children.push([]);
    for (i = 0; i < n; i++) (g.tp[i] < 0 ? this.roots : this.children[g.tp[i]]).push(i);
    this.size = new Int32Array(n).fill(1);
    for (i = n - 1; i >= 0; i--) if (g.tp[i] >= 0) this.size[g.tp[i]] += this.size[i];
    this.start();
    var tools = html('div', null, body, 'graph-tools');
    var collapse = html('button', 'Collapse all', tools);
    collapse.type = 'button';
    var self = this;
    collapse.addEventListener('click', function () { self.start(); self.render(); });
    collapse.hidden = g.flat;
    this.caption = html('span', '', tools, 'muted');
    this.caption.setAttribute('aria-live', 'polite');
    this.view = html('div', null, body, 'graph-view');
    this.info = html('div', 'Select a node (Tab, then Enter) to see its details.', body, 'graph-info');
    this.info.setAttribute('aria-live', 'polite');
    this.render();
  }
  GraphView.prototype.label = function (i) {
    var g = this.g;
    if (g.a[i]) return g.v[i] ? g.a[i] + '@' + g.v[i] : g.a[i];
    return g.r[i] || '(no bom-ref)';
  };
  // What is open at first: everything in a small graph; in a large one, the tree from the top, breadth-first, while
  // about 40 items show.
  GraphView.prototype.start = function () {
    this.expanded = {};
    if (this.g.flat) return;
    var shown = Math.min(this.roots.length, this.g.b), queue = this.roots.length <= this.g.b ? this.roots.slice() : [];
    for (var q = 0; q < queue.length; q++) {
      var kids = this.children[queue[q]];
      if (kids.length === 0) continue;
      var more = Math.min(kids.length, this.g.b) * 2;
      if (shown + more > 40) break;
      this.expanded['b' + queue[q]] = true;
      shown += more;
      if (kids.length <= this.g.b) queue.push.apply(queue, kids);
    }
  };
  // Each node's item: itself, or the outermost collapsed cluster around it. Clusters are runs of the order: the
  // descendants of a node ('b' + node), or the subtrees of a run of siblings ('k' + parent:from:to).
  GraphView.prototype.assign = function () {
    var g = this.g, self = this, B = g.b, of = new Array(g.n), clusters = {};
    function cluster(key, from, to, top) {
      clusters[key] = { from: from, to: to, top: top };
      for (var i = from; i < to; i++) if (!self.pinned[i]) of[i] = key;
    }
    function group(parent, list, lo, hi) {
      var count = hi - lo;
      if (count > B && !g.flat) {
        var chunk = B;
        while (chunk * B < count) chunk *= B;
        for (var a = lo; a < hi; a += chunk) {
          var b = Math.min(hi, a + chunk), key = 'k' + parent + ':' + a + ':' + b;
          if (self.expanded[key]) group(parent, list, a, b);
          else cluster(key, list[a], list[b - 1] + self.size[list[b - 1]], -1);
        }
        return;
      }
      for (var j = lo; j < hi; j++) {
        var c = list[j];
        of[c] = 'n' + c;
        if (self.children[c].length === 0) continue;
        if (g.flat || self.expanded['b' + c]) group(c, self.children[c], 0, self.children[c].length);
        else cluster('b' + c, c + 1, c + self.size[c], c);
      }
    }
    group(-1, this.roots, 0, this.roots.length);
    for (var i = 0; i < g.n; i++) if (this.pinned[i]) of[i] = 'n' + i;
    this.clusters = clusters;
    return of;
  };
  GraphView.prototype.render = function () {
    var g = this.g, n = g.n, self = this;
    var items = [], byKey = {}, ofNode = this.assign();
    for (var i = 0; i < n; i++) {
      var key = ofNode[i];
      var item = byKey[key];
      if (!item) {
        item = byKey[key] = { key: key, first: i, count: 0, flagged: 0, worst: 0, out: [], index: items.length,
          cluster: this.clusters[key] };
        items.push(item);
      }
      item.count++;
      if (this.severity[i] > 0) item.flagged++;
      if (this.severity[i] > item.worst) item.worst = this.severity[i];
    }
    var edges = [], seen = {};
    function link(a, b, nest) {
      var from = byKey[ofNode[a]], to = byKey[ofNode[b]];
      if (from === to) return;
      var key = from.index + '>' + to.index;
      var edge = seen[key];
      if (edge) { if (!nest) edge.nest = false; return; }
      edge = seen[key] = { from: from, to: to, nest: nest };
      edges.push(edge);
      from.out.push(to);
    }
    for (i = 0; i < g.e.length; i += 2) link(g.e[i], g.e[i + 1], false);
    for (i = 0; i < g.p.length; i += 2) link(g.p[i + 1], g.p[i], true);
    this.layout(items);
    this.draw(items, edges);
    var clusters = items.filter(function (it) { return it.cluster; }).length;
    this.caption.textContent = n + ' nodes, ' + (g.e.length / 2) + ' dependencies' +
      (g.flat ? '' : '; showing ' + (items.length - clusters) + ' nodes and ' + clusters + ' clusters') +
      (g.o.nodes + g.o.edges > 0 ? '; ' + g.o.nodes + ' nodes and ' + g.o.edges + ' edges over the limits left out' : '');
    return ofNode;
  };
  // Layers by longest path (edges that close a cycle are left out), then rows of at most COLUMNS items ordered
  // by where their predecessors are.
  GraphView.prototype.layout = function (items) {
    var count = items.length, state = new Uint8Array(count), forward = items.map(function () { return []; });
    var indegree = new Int32Array(count);
    for (var s = 0; s < count; s++) {
      if (state[s]) continue;
      var stack = [[s, 0]];
      state[s] = 1;
      while (stack.length > 0) {
        var top = stack[stack.length - 1], item = items[top[0]];
        if (top[1] < item.out.length) {
          var next = item.out[top[1]++].index;
          if (state[next] === 1) continue;
          forward[top[0]].push(next);
          indegree[next]++;
          if (state[next] === 0) { state[next] = 1; stack.push([next, 0]); }
        } else { state[top[0]] = 2; stack.pop(); }
      }
    }
    var layer = new Int32Array(count), queue = [];
    for (var i = 0; i < count; i++) if (indegree[i] === 0) queue.push(i);
    for (var q = 0; q < queue.length; q++) {
      var u = queue[q];
      forward[u].forEach(function (v) {
        if (layer[u] + 1 > layer[v]) layer[v] = layer[u] + 1;
        if (--indegree[v] === 0) queue.push(v);
      });
    }
    var layers = [];
    for (i = 0; i < count; i++) (layers[layer[i]] = layers[layer[i]] || []).push(i);
    var x = new Float64Array(count), preds = items.map(function () { return []; });
    for (i = 0; i < count; i++) forward[i].forEach(function (v) { preds[v].push(i); });
    var row = 0, width = 0;
    layers.forEach(function (members) {
      if (!members) return;
      members.forEach(function (m) {
        var p = preds[m];
        var sum = 0;
        for (var j = 0; j < p.length; j++) sum += x[p[j]];
        items[m].bary = p.length ? sum / p.length : m;
      });
      members.sort(function (a, b) { return items[a].bary - items[b].bary || a - b; });
      for (var start = 0; start < members.length; start += COLUMNS) {
        var chunk = members.slice(start, start + COLUMNS);
        chunk.forEach(function (m, col) {
          items[m].x = PAD + col * (W + GX);
          items[m].y = PAD + row * (H + GY);
          x[m] = col;
        });
        width = Math.max(width, chunk.length);
        row++;
      }
    });
    this.width = PAD * 2 + Math.max(1, width) * (W + GX) - GX;
    this.height = PAD * 2 + Math.max(1, row) * (H + GY) - GY;
  };
  GraphView.prototype.draw = function (items, edges) {
    var self = this, g = this.g;
    this.view.textContent = '';
    var svg = el('svg', { width: this.width, height: this.height, viewBox: '0 0 ' + this.width + ' ' + this.height,
      role: 'group', 'aria-label': 'Dependency graph' }, this.view);
    var marker = el('marker', { id: this.id + '-arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 7,
      markerHeight: 7, orient: 'auto-start-reverse' }, el('defs', {}, svg));
    el('path', { d: 'M0,0 L10,5 L0,10 z', 'class': 'arrow' }, marker);
    var edgeLayer = el('g', {}, svg);
    edges.forEach(function (edge) {
      var a = edge.from, b = edge.to;
      var x1 = a.x + W / 2, y1 = a.y + H, x2 = b.x + W / 2, y2 = b.y;
      if (b.y <= a.y) { y1 = a.y + H / 2; x1 = a.x + (b.x >= a.x ? W : 0); y2 = b.y + H / 2; x2 = b.x + (b.x > a.x ? 0 : W); }
      var bend = Math.max(24, Math.abs(y2 - y1) / 3);
      el('path', { d: 'M' + x1 + ',' + y1 + ' C' + x1 + ',' + (y1 + bend) + ' ' + x2 + ',' + (y2 - bend) + ' ' + x2 + ',' + y2,
        'class': 'edge' + (edge.nest ? ' nest' : ''), 'marker-end': 'url(#' + self.id + '-arrow)' }, edgeLayer);
    });
    var nodeLayer = el('g', {}, svg);
    items.forEach(function (item) {
      var cluster = item.cluster;
      var i = item.first;
      var classes = 'node' + (cluster ? ' cluster' : '') + (item.worst === 2 ? ' err' : item.worst === 1 ? ' warn' : '') +
        (!cluster && g.t[g.k[i]] === 'missing' ? ' missing' : '');
      var title, line1, line2;
      if (cluster) {
        line1 = '\\u25B8 ' + item.count + ' components' + (item.flagged ? ', ' + item.flagged + ' marked' : '');
        line2 = cluster.top >= 0 ? 'below ' + self.label(cluster.top) : self.label(i) + ' \\u2026';
        title = 'Cluster of ' + item.count + ' components ' + (cluster.top >= 0 ? 'below ' + self.label(cluster.top) :
          'from ' + self.label(i)) + ': Enter expands it';
      } else {
        line1 = self.label(i);
        line2 = g.t[g.k[i]] + (item.worst === 2 ? ', error' : item.worst === 1 ? ', warning' : '');
        title = line1 + ' (' + line2 + ')';
      }
      var node = el('g', { 'class': classes, transform: 'translate(' + item.x + ',' + item.y + ')', tabindex: 0,
        role: 'button', 'data-key': item.key, 'aria-label': title }, nodeLayer);
      if (cluster) node.setAttribute('aria-expanded', 'false');
      el('title', {}, node).textContent = title;
      el('rect', { width: W, height: H, rx: cluster ? 10 : 4 }, node);
      el('text', { x: 8, y: 16 }, node).textContent = cut(line1, 28);
      el('text', { x: 8, y: 32, 'class': 'sub' }, node).textContent = cut(line2, 30);
      var activate = function () { cluster ? self.expand(item) : self.select(i, node); };
      node.addEventListener('click', activate);
      node.addEventListener('keydown', function (event) {
        if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); activate(); }
      });
    });
  };
  GraphView.prototype.expand = function (item) {
    this.expanded[item.key] = true;
    // A chain opens 16 links at a time, not one.
    var top = item.cluster.top;
    for (var depth = 0; top >= 0 && this.children[top].length === 1 && depth < 16; depth++) {
      top = this.children[top][0];
      if (this.children[top].length === 0) break;
      this.expanded['b' + top] = true;
    }
    var of = this.render();
    var first = this.view.querySelector('[data-key="' + of[item.cluster.from] + '"]');
    if (first) first.focus();
  };
  GraphView.prototype.select = function (i, node) {
    var g = this.g, self = this;
    var previous = this.view.querySelector('.node.selected');
    if (previous) previous.classList.remove('selected');
    node.classList.add('selected');
    this.info.textContent = '';
    var list = html('dl', null, this.info);
    function row(name, value) { if (value === '' || value === undefined) return; html('dt', name, list); html('dd', value, list); }
    row('bom-ref', g.r[i]);
    row('name', g.a[i]);
    row('version', g.v[i]);
    row('kind', g.t[g.k[i]] === 'missing' ? 'missing: referenced, but no element has this bom-ref' : g.t[g.k[i]]);
    if (this.parent[i] >= 0) row('nested in', this.label(this.parent[i]));
    var uses = 0, usedBy = 0;
    for (var e = 0; e < g.e.length; e += 2) { if (g.e[e] === i) uses++; if (g.e[e + 1] === i) usedBy++; }
    row('depends on', uses + ' nodes');
    row('used by', usedBy + ' nodes');
    var found = [];
    for (var f = 0; f < g.f.length; f += 2) if (g.f[f] === i) found.push(g.f[f + 1]);
    if (found.length > 0) {
      html('strong', 'Findings', this.info);
      var ul = html('ul', null, this.info);
      found.forEach(function (d) {
        var finding = self.section.querySelector('tr.finding[data-index="' + d + '"]');
        if (!finding) return;
        html('li', finding.getAttribute('data-severity') + ' ' + finding.getAttribute('data-rule') + ': ' +
          finding.querySelector('.message').textContent, ul);
      });
    }
  };

  function open(details) {
    if (!details.open || details.getAttribute('data-drawn') === 'true') return;
    details.setAttribute('data-drawn', 'true');
    new GraphView(details);
  }
  Array.prototype.forEach.call(document.querySelectorAll('details.graph[data-graph]'), function (details) {
    details.addEventListener('toggle', function () { open(details); });
    open(details);
  });
})();
`;
