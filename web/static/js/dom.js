// Small helpers to build the DOM without a framework.

import { language } from './i18n.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

function apply(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    else if (k === 'text') el.textContent = v;
    else if (k === 'testid') el.setAttribute('data-testid', v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'value' && 'value' in el) el.value = v;
    else if (k === 'checked' || k === 'selected' || k === 'disabled') el[k] = !!v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

// h('div', {class: 'x', onclick: fn}, child, ...) builds an element.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

// s builds an SVG element.
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export function replace(el, ...children) {
  clear(el);
  append(el, children);
  return el;
}

// isTyping reports whether a key event comes from a text field, where
// page-wide keys (replay arrows) must not act.
export function isTyping(ev) {
  const t = ev.target;
  if (!t || !t.closest) return false;
  return !!t.closest('input, textarea, select, [contenteditable="true"]');
}

// debounce calls fn once, ms after the last call.
export function debounce(fn, ms) {
  let timer = 0;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

export function formatDate(ms) {
  if (!ms) return '';
  const d = new Date(ms);
  // In the client's language, not the browser's.
  return d.toLocaleDateString(language(), { year: 'numeric', month: 'short', day: 'numeric' }) + ' ' +
    d.toLocaleTimeString(language(), { hour: '2-digit', minute: '2-digit' });
}

// formatAgo says how long ago ms was, in the client's language ("3 hours
// ago", "vor 3 Stunden").
export function formatAgo(ms) {
  if (!ms) return '';
  const secs = Math.round((ms - Date.now()) / 1000);
  const rtf = new Intl.RelativeTimeFormat(language(), { numeric: 'auto' });
  for (const [unit, n] of [['year', 31536000], ['month', 2592000], ['day', 86400], ['hour', 3600], ['minute', 60]]) {
    if (Math.abs(secs) >= n) return rtf.format(Math.round(secs / n), unit);
  }
  return rtf.format(Math.min(0, secs), 'second');
}
