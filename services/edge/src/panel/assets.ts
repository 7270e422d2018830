import { createHash } from "node:crypto";

/**
 * The panel's only stylesheet and script, served by the edge itself (no CDN, no outside
 * fonts): the Content-Security-Policy allows nothing but this origin.
 */
export const panelCss = `:root{--fg:#1d2330;--muted:#5b6475;--bg:#f5f6f8;--card:#fff;--line:#dde1e8;--accent:#1f5fbf;--ok:#1d7a3a;--warn:#a35a00;--bad:#b42318}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
header.top{display:flex;align-items:center;gap:1.5rem;padding:.75rem 1.5rem;background:#17233a;color:#fff}
header.top a{color:#dfe7f5;text-decoration:none}
header.top a[aria-current=page]{color:#fff;font-weight:600;border-bottom:2px solid #fff}
header.top .brand{font-weight:700;font-size:1.1rem;color:#fff}
header.top nav{display:flex;gap:1rem;flex:1;flex-wrap:wrap}
header.top form{margin:0}
header.top .who{color:#b9c4d8;font-size:.9rem}
main{max-width:1100px;margin:1.5rem auto;padding:0 1.5rem}
main.narrow{max-width:460px}
h1{font-size:1.5rem;margin:.2rem 0 1rem}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem 1.25rem;margin-bottom:1rem}
label{display:block;font-weight:600;margin:.6rem 0 .2rem}
input[type=text],input[type=email],input[type=password],input[type=date],input[type=number],select,textarea{width:100%;padding:.45rem .55rem;border:1px solid #b8c0cc;border-radius:6px;font:inherit;background:#fff}
textarea{min-height:7rem;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem}
button,.button{display:inline-block;padding:.45rem .9rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:#fff;font:inherit;cursor:pointer;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:var(--accent)}
button.danger{background:var(--bad);border-color:var(--bad)}
header.top button{background:transparent;border-color:#6d7c98;color:#dfe7f5;padding:.2rem .6rem}
.actions{display:flex;gap:.6rem;align-items:center;margin-top:1rem;flex-wrap:wrap}
table{width:100%;border-collapse:collapse;background:var(--card);font-size:.9rem}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{background:#eef1f5;font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums}
code,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem}
.notice{padding:.7rem 1rem;border-radius:6px;margin:0 0 1rem;border:1px solid}
.notice.ok{background:#ecf7ef;border-color:#9fd3ae;color:#12502a}
.notice.error{background:#fdeceb;border-color:#f1a9a3;color:#7a1710}
.notice.warn{background:#fff5e6;border-color:#f0c27b;color:#6b3b00}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.8rem;font-weight:600;border:1px solid}
.badge.ok{color:var(--ok);border-color:var(--ok)}
.badge.warn{color:var(--warn);border-color:var(--warn);background:#fff5e6}
.badge.bad{color:var(--bad);border-color:var(--bad)}
.badge.muted{color:var(--muted);border-color:var(--line)}
tr.expiring td{background:#fff5e6}
.secret{display:flex;gap:.5rem;align-items:center}
.secret input{flex:1;font-family:ui-monospace,Menlo,Consolas,monospace}
.muted{color:var(--muted)}
.grid2{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.filters{display:flex;gap:.75rem;flex-wrap:wrap;align-items:flex-end}
.filters label{margin:0}
.filters > div{min-width:9rem}
meter{width:100%;height:1.2rem}
.chart{width:100%;height:auto;background:#fff;border:1px solid var(--line);border-radius:8px}
.legend{display:flex;gap:1rem;font-size:.85rem;margin:.4rem 0}
.legend span::before{content:"";display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:-1px;border-radius:2px;background:currentColor}
.s2xx{color:#2f8f4e}.s4xx{color:#d08700}.s5xx{color:#c0392b}
form.inline{display:flex;flex-direction:column;gap:.3rem;margin:.3rem 0 0;max-width:12rem}
form.inline input{padding:.2rem .4rem}
form.inline button{padding:.2rem .5rem;font-size:.8rem}
.pager{display:flex;justify-content:space-between;margin-top:.6rem}
footer{max-width:1100px;margin:2rem auto;padding:0 1.5rem;color:var(--muted);font-size:.8rem}
`;

/** Copy buttons: `<button data-copy="#id">` copies that field's value. */
export const panelJs = `"use strict";
document.addEventListener("click", function (event) {
  var button = event.target.closest ? event.target.closest("[data-copy]") : null;
  if (!button) return;
  var field = document.querySelector(button.getAttribute("data-copy"));
  if (!field) return;
  field.select();
  var done = function () { button.textContent = "Copiada"; };
  if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand("copy"); done(); });
  else { document.execCommand("copy"); done(); }
});
`;

const version = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 10);
/** Versioned paths, so the files can be cached for long and a deploy still takes effect. */
export const CSS_PATH = `/panel/assets/panel-${version(panelCss)}.css`;
export const JS_PATH = `/panel/assets/panel-${version(panelJs)}.js`;
