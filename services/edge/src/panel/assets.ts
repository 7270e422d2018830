import { createHash } from "node:crypto";

/**
 * The panel's only stylesheet and script, served by the edge itself (no CDN, no outside
 * fonts): the Content-Security-Policy allows nothing but this origin.
 */
export const panelCss = `:root{--fg:#1d2330;--muted:#5b6475;--bg:#f5f6f8;--card:#fff;--line:#dde1e8;--accent:#1f5fbf;--ok:#1d7a3a;--warn:#a35a00;--bad:#b42318;--band:#17233a}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg);overflow-wrap:break-word}
a{color:var(--accent)}
header.top{position:relative;display:flex;align-items:center;gap:1.25rem;min-height:3.5rem;padding:.5rem 1.5rem;background:var(--band);color:#fff;white-space:nowrap}
header.top a{color:#dfe7f5;text-decoration:none}
header.top a:hover{text-decoration:underline}
header.top a[aria-current=page]{color:#fff;font-weight:600;border-bottom:2px solid #fff}
header.top .brand{font-weight:700;font-size:1.1rem;color:#fff}
header.top .menu{display:none}
header.top .links{display:flex;align-items:center;gap:1.25rem;flex:1;min-width:0}
header.top nav{display:flex;gap:1rem}
header.top form{margin:0}
header.top .who{min-width:0;margin-left:auto;overflow:hidden;text-overflow:ellipsis;color:#b9c4d8;font-size:.85rem}
main{max-width:1200px;margin:1.5rem auto;padding:0 1.5rem}
main.narrow{max-width:460px}
h1{font-size:1.5rem;margin:.2rem 0 1rem;overflow-wrap:anywhere}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem 1.25rem;margin-bottom:1rem}
.card > h2:first-child,.card > input[type=hidden]:first-child + h2{margin-top:.2rem}
label{display:block;font-weight:600;margin:.6rem 0 .2rem}
input[type=text],input[type=url],input[type=email],input[type=password],input[type=date],input[type=number],select,textarea{width:100%;max-width:100%;padding:.45rem .55rem;border:1px solid #b8c0cc;border-radius:6px;font:inherit;background:#fff}
input[type=file]{max-width:100%}
textarea{min-height:7rem;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem}
button,.button{display:inline-block;padding:.45rem .9rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:#fff;font:inherit;cursor:pointer;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:var(--accent)}
button.danger{background:var(--bad);border-color:var(--bad)}
header.top button{background:transparent;border-color:#8593ad;color:#fff;padding:.2rem .6rem}
.actions{display:flex;gap:.6rem;align-items:center;margin-top:1rem;flex-wrap:wrap}
.table-scroll{max-width:100%;overflow-x:auto;margin-bottom:.25rem}
.table-scroll:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
table{width:100%;border-collapse:collapse;background:var(--card);font-size:.875rem}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{background:#eef1f5;font-weight:600;white-space:nowrap}
td.num{text-align:right;font-variant-numeric:tabular-nums}
#historial td:first-child,#comprobantes td:first-child,td.num,td.mono,time,.nowrap{white-space:nowrap}
code,.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem}
.field-error{color:var(--bad);font-size:.9rem;margin:.25rem 0 0}
[aria-invalid=true]{border-color:var(--bad);box-shadow:0 0 0 1px var(--bad)}
.notice{padding:.7rem 1rem;border-radius:6px;margin:0 0 1rem;border:1px solid}
.notice.ok{background:#ecf7ef;border-color:#9fd3ae;color:#12502a}
.notice.error{background:#fdeceb;border-color:#f1a9a3;color:#7a1710}
.notice.warn{background:#fff5e6;border-color:#f0c27b;color:#6b3b00}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.8rem;font-weight:600;border:1px solid;white-space:nowrap}
.badge.ok{color:var(--ok);border-color:var(--ok)}
.badge.warn{color:var(--warn);border-color:var(--warn);background:#fff5e6}
.badge.bad{color:var(--bad);border-color:var(--bad)}
.badge.muted{color:var(--muted);border-color:var(--line)}
.badge.info{color:var(--accent);border-color:var(--accent)}
tr.expiring td{background:#fff5e6}
.secret{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.secret input{flex:1 1 12rem;font-family:ui-monospace,Menlo,Consolas,monospace}
.muted{color:var(--muted)}
fieldset.checks{min-width:0;margin:.8rem 0 0;padding:.3rem .8rem .6rem;border:1px solid var(--line);border-radius:6px;display:grid;grid-template-columns:repeat(auto-fill,minmax(min(16rem,100%),1fr));gap:0 1rem}
fieldset.checks legend{font-weight:600;padding:0 .3rem}
fieldset.checks label,label.check{display:block;min-width:0;font-weight:400;margin:.3rem 0}
fieldset.checks input,label.check input{margin:0 .4rem 0 0}
fieldset.checks code{overflow-wrap:anywhere}
fieldset.checks .field-error{grid-column:1/-1}
.url{overflow-wrap:anywhere}
td.url{min-width:14rem}
.table-scroll + .card{margin-top:1rem}
td.action form{margin:0}
td.action button{padding:.2rem .6rem;font-size:.85rem}
.grid2{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:1rem}
.filters{display:flex;gap:.75rem;flex-wrap:wrap;align-items:flex-end}
.filters label{margin:0}
.filters > div{min-width:9rem}
meter{width:100%;height:1.2rem}
.chart{display:block;width:100%;height:auto;background:#fff;border:1px solid var(--line);border-radius:8px}
.chart.narrow{display:none}
.legend{display:flex;flex-wrap:wrap;gap:.4rem 1rem;font-size:.85rem;margin:.4rem 0}
.legend span::before{content:"";display:inline-block;width:.8rem;height:.8rem;margin-right:.3rem;vertical-align:-1px;border-radius:2px}
.s2xx::before{background:#2f8f4e}.s4xx::before{background:#d08700}.s5xx::before{background:#c0392b}
form.inline{display:flex;flex-direction:column;gap:.3rem;margin:.3rem 0 0;width:11rem}
form.inline input{padding:.2rem .4rem}
form.inline button{padding:.2rem .5rem;font-size:.8rem}
.pager{display:flex;justify-content:space-between;gap:1rem;margin-top:.6rem}
footer{max-width:1200px;margin:2rem auto;padding:0 1.5rem;color:var(--muted);font-size:.8rem;text-align:center}
@media (max-width:68rem){header.top .who{display:none}}
@media (max-width:50rem){
header.top{gap:.75rem;padding:.5rem 1rem}
header.top .brand{margin-right:auto}
header.top .menu{display:block}
header.top summary{display:block;list-style:none;cursor:pointer;padding:.2rem .7rem;border:1px solid #8593ad;border-radius:6px;color:#fff}
header.top summary::-webkit-details-marker{display:none}
header.top summary::after{content:"";display:inline-block;width:.4em;height:.4em;margin:0 0 .2em .5em;border:solid currentColor;border-width:0 2px 2px 0;transform:rotate(45deg)}
header.top .menu[open] summary::after{margin-bottom:-.1em;transform:rotate(225deg)}
header.top .links{display:none;position:absolute;z-index:10;top:100%;left:0;right:0;flex-direction:column;align-items:stretch;gap:0;padding:.25rem 1rem 1rem;background:var(--band);box-shadow:0 8px 16px rgba(0,0,0,.25);white-space:normal}
header.top .menu[open] ~ .links{display:flex}
header.top nav{flex-direction:column;gap:0}
header.top nav a{padding:.65rem 0;border-bottom:1px solid #2c3a57}
header.top nav a[aria-current=page]{border-bottom:1px solid #2c3a57;box-shadow:inset 3px 0 0 #fff;padding-left:.6rem}
header.top .who{display:block;margin:.75rem 0 0;white-space:normal;overflow-wrap:anywhere}
main{margin:1rem auto;padding:0 1rem}
.card{padding:.85rem 1rem}
}
@media (max-width:40rem){
.grid2{grid-template-columns:minmax(0,1fr)}
.filters > div{flex:1 1 9rem}
.chart.wide{display:none}
.chart.narrow{display:block}
footer{padding:0 1rem}
}
`;

/** Copy buttons: `<button data-copy="#id">` copies that field's value. */
export const panelJs = `"use strict";
document.addEventListener("click", function (event) {
  var button = event.target.closest ? event.target.closest("[data-copy]") : null;
  if (!button) return;
  var field = document.querySelector(button.getAttribute("data-copy"));
  if (!field) return;
  field.select();
  var done = function () { button.textContent = button.getAttribute("data-copied") || "Copiada"; };
  if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand("copy"); done(); });
  else { document.execCommand("copy"); done(); }
});
`;

/** The tab's icon: a voucher on the header's dark band (linked from every page, so no 404). */
export const faviconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#17233a"/><path d="M9 6h10l5 5v15H9z" fill="#fff"/><path d="M19 6v5h5z" fill="#b9c4d8"/><path d="M12.5 15.5h8m-8 3.5h8m-8 3.5h5" stroke="#1f5fbf" stroke-width="1.8"/></svg>
`;

const version = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 10);
/** Versioned paths, so the files can be cached for long and a deploy still takes effect. */
export const CSS_PATH = `/panel/assets/panel-${version(panelCss)}.css`;
export const JS_PATH = `/panel/assets/panel-${version(panelJs)}.js`;
export const FAVICON_PATH = `/panel/assets/favicon-${version(faviconSvg)}.svg`;
