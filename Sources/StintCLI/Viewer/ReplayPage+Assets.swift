/// The style and the script of `stint view`'s page, written into it inline (nothing is fetched).
enum ReplayPageAssets {
    static let style = """
        :root { color-scheme: light dark; --accent: #2f6fde; --muted: #6b7280; --line: #d1d5db; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
        header, #controls, main { padding: 8px 16px; }
        header h1 { font-size: 18px; margin: 8px 0 0; }
        header p { margin: 2px 0; color: var(--muted); }
        #controls { position: sticky; top: 0; z-index: 1; background: Canvas; border-bottom: 1px solid var(--line);
          display: grid; grid-template-columns: auto 1fr auto; gap: 4px 12px; align-items: center; }
        #controls .buttons button { font: inherit; min-width: 2.4em; }
        #track { position: relative; }
        #scrubber { width: 100%; margin: 0; }
        #markers { position: relative; height: 6px; }
        #markers span { position: absolute; top: 0; width: 2px; height: 6px; background: var(--accent); }
        #markers span.conflict { background: #d97706; height: 10px; width: 3px; }
        #lanes { position: relative; font-size: 11px; color: var(--muted); }
        #lanes .lane { position: relative; height: 12px; border-top: 1px dotted var(--line); }
        #lanes .lane span { position: absolute; top: 3px; width: 2px; height: 8px; background: var(--muted); }
        #lanes .lane span.conflict { background: #d97706; }
        #lanes .lane label { position: absolute; left: 0; top: -2px; background: Canvas; padding-right: 4px; }
        #position { font-variant-numeric: tabular-nums; color: var(--muted); }
        #conflicts li { color: #b45309; }
        #list li.conflict button::before { content: "\\26A0 "; color: #d97706; }
        main { display: grid; grid-template-columns: minmax(0, 3fr) minmax(220px, 1fr); gap: 16px; }
        h2 { font-size: 16px; margin: 8px 0 4px; }
        h3 { font-size: 14px; margin: 12px 0 4px; }
        .facts { margin: 0; color: var(--muted); }
        .facts code { color: CanvasText; }
        #widgets { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
        #widgets figure { margin: 0; }
        #widgets figcaption { font-size: 12px; color: var(--muted); }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 2px 8px 2px 0; vertical-align: top; border-bottom: 1px solid var(--line); }
        td.seq { font-variant-numeric: tabular-nums; white-space: nowrap; }
        td.chain { font-family: ui-monospace, monospace; white-space: nowrap; }
        td.before { color: var(--muted); }
        pre { margin: 0; overflow-x: auto; font-size: 12px; }
        #warning { color: #b91c1c; }
        #list { list-style: none; margin: 0; padding: 0; max-height: 80vh; overflow-y: auto; overflow-x: hidden;
          font-size: 12px; }
        #list button { all: unset; display: block; width: 100%; padding: 1px 4px; cursor: pointer;
          font-variant-numeric: tabular-nums; }
        #list li.wrote button::after { content: " \\25CF"; color: var(--accent); }
        #list li.current button { background: var(--accent); color: white; }
        @media (max-width: 800px) { main { grid-template-columns: 1fr; } }
        """

    static let script = """
        (function () {
          "use strict";
          var data = JSON.parse(document.getElementById("stint-data").textContent);
          var points = data.points;
          var scrubber = document.getElementById("scrubber");
          var list = document.getElementById("list");
          var figures = [];
          var current = -1;
          var timer = null;
          var mode = "widgets";
          function element(name, text, className) {
            var node = document.createElement(name);
            if (text !== undefined) node.textContent = text;
            if (className) node.className = className;
            return node;
          }
          // Each widget in a shadow root of its own: the SVGs share ids (their clip path), which a document
          // would resolve to the first of them.
          data.slots.forEach(function (slot) {
            var figure = element("figure");
            var holder = element("div", undefined, "svg");
            figure.appendChild(holder);
            figure.appendChild(element("figcaption", slot));
            document.getElementById("widgets").appendChild(figure);
            figures.push(holder.attachShadow({ mode: "open" }));
          });
          var markers = document.getElementById("markers");
          // On a space, a lane per device under the scrubber: a mark where a point holds its batches.
          var lanes = document.getElementById("lanes");
          var laneRows = (data.lanes || []).map(function (device) {
            var lane = element("div", undefined, "lane");
            lane.appendChild(element("label", device));
            lanes.appendChild(lane);
            return lane;
          });
          points.forEach(function (point, index) {
            var left = points.length > 1 ? (100 * index / (points.length - 1)) + "%" : "0%";
            var conflicted = point.conflictsSince > 0;
            (point.devices || []).forEach(function (device) {
              var lane = laneRows[data.lanes.indexOf(device)];
              if (!lane) return;
              var mark = element("span", undefined, conflicted ? "conflict" : "");
              mark.style.left = left;
              lane.appendChild(mark);
            });
            if (conflicted) {
              var flag = element("span", undefined, "conflict");
              flag.style.left = left;
              flag.title = "conflicts resolved";
              markers.appendChild(flag);
            }
            var item = element("li", undefined, (point.wrote ? "wrote" : "") + (conflicted ? " conflict" : ""));
            var button = element(
              "button", point.local + " \\u00B7 " + (point.devices.length > 0 ? point.devices.join(" ") + " " : "") + "seq " + point.seqs);
            button.type = "button";
            button.addEventListener("click", function () { show(index); });
            item.appendChild(button);
            list.appendChild(item);
            if (point.wrote && points.length > 1) {
              var tick = element("span");
              tick.style.left = (100 * index / (points.length - 1)) + "%";
              markers.appendChild(tick);
            }
          });
          scrubber.max = String(points.length - 1);
          function show(index) {
            if (points.length === 0) return;
            index = Math.max(0, Math.min(points.length - 1, index));
            if (current >= 0) list.children[current].classList.remove("current");
            current = index;
            scrubber.value = String(index);
            var point = points[index];
            list.children[index].classList.add("current");
            list.children[index].scrollIntoView({ block: "nearest" });
            document.getElementById("point-title").textContent = point.local;
            document.getElementById("position").textContent = (index + 1) + " / " + points.length;
            document.getElementById("point-at").textContent = point.at;
            document.getElementById("point-seqs").textContent = point.seqs;
            document.getElementById("point-batches").textContent = String(point.batches);
            document.getElementById("point-fingerprint").textContent = point.fingerprint;
            point[mode].forEach(function (svg, slot) {
              var holder = figures[slot];
              if (svg === null) {
                holder.replaceChildren(element("div", "nothing published yet"));
              } else {
                holder.innerHTML = data.svgs[svg];
              }
            });
            var conflictList = document.getElementById("conflicts");
            conflictList.replaceChildren();
            point.conflicts.forEach(function (line) { conflictList.appendChild(element("li", line)); });
            var unlisted = point.conflictsSince - point.conflicts.length;
            if (unlisted > 0) {
              conflictList.appendChild(element("li", unlisted + " more at the points between the point before and this one"));
            }
            document.getElementById("conflicts-section").hidden = point.conflictsSince === 0;
            document.getElementById("point-devices").textContent =
              point.devices.length > 0 ? ", device " + point.devices.join(", ") : "";
            var changes = document.getElementById("changes-body");
            changes.replaceChildren();
            point.changes.forEach(function (change) {
              var row = element("tr");
              row.appendChild(element("td", change.what));
              row.appendChild(element("td", change.before, "before"));
              row.appendChild(element("td", change.after, "after"));
              changes.appendChild(row);
            });
            document.getElementById("no-changes").hidden = point.changes.length > 0;
            var body = document.getElementById("events-body");
            body.replaceChildren();
            point.events.forEach(function (event) {
              var row = element("tr");
              row.appendChild(element("td", String(event.seq), "seq"));
              row.appendChild(element("td", event.device || ""));
              row.appendChild(element("td", event.type));
              row.appendChild(element("td", event.text));
              row.appendChild(element("td", event.chain, "chain"));
              body.appendChild(row);
            });
            document.getElementById("more-events").textContent =
              point.moreEvents > 0 ? "and " + point.moreEvents + " more events in these batches" : "";
            document.getElementById("rows").textContent = point.rows.join("\\n");
          }
          function stop() {
            if (timer !== null) clearInterval(timer);
            timer = null;
            document.getElementById("play").textContent = "Play";
          }
          function play() {
            if (timer !== null) return stop();
            if (current >= points.length - 1) show(0);
            document.getElementById("play").textContent = "Pause";
            timer = setInterval(function () {
              if (current >= points.length - 1) return stop();
              show(current + 1);
            }, 700);
          }
          scrubber.addEventListener("input", function () { show(Number(scrubber.value)); });
          document.querySelectorAll("#modes input").forEach(function (input) {
            input.addEventListener("change", function () {
              mode = input.value;
              show(current);
            });
          });
          document.getElementById("first").addEventListener("click", function () { show(0); });
          document.getElementById("previous").addEventListener("click", function () { show(current - 1); });
          document.getElementById("play").addEventListener("click", play);
          document.getElementById("next").addEventListener("click", function () { show(current + 1); });
          document.getElementById("last").addEventListener("click", function () { show(points.length - 1); });
          document.addEventListener("keydown", function (event) {
            if (event.target === scrubber || event.altKey || event.ctrlKey || event.metaKey) return;
            var moves = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: points.length - 1 };
            if (!(event.key in moves)) return;
            event.preventDefault();
            show(moves[event.key]);
          });
          show(points.length - 1);
        })();
        """
}
