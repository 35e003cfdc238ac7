// The tiny i18n layer: every visible string is t(KEY, {params}), the
// strings live in i18n/LANG.json (and the rules' prose in
// data/rules.LANG.json). To add a language, add its two files and its code
// to LANGUAGES; a test fails while a key is missing in any of them.

// LANGUAGES are the languages of the client, each named in itself.
export const LANGUAGES = [
  ['en', 'English'],
  ['de', 'Deutsch'],
  ['nl', 'Nederlands'],
  ['fr', 'Français'],
  ['es', 'Español'],
  ['zh', '中文'],
];
const FALLBACK = '/i18n/en.json';
const STORE = 'morris.lang';

let strings = {};
let fallback = {};
let lang = 'en';
const missing = new Set();

// wantedLanguage is the language chosen with the switch, else the
// browser's first language we have, else English.
function wantedLanguage() {
  const codes = LANGUAGES.map(([c]) => c);
  const chosen = localStorage.getItem(STORE);
  if (chosen && codes.includes(chosen)) return chosen;
  for (const l of navigator.languages || [navigator.language || 'en']) {
    const c = String(l).slice(0, 2).toLowerCase();
    if (codes.includes(c)) return c;
  }
  return 'en';
}

export async function loadLocale() {
  fallback = await (await fetch(FALLBACK)).json();
  strings = fallback;
  lang = 'en';
  const wanted = wantedLanguage();
  if (wanted !== 'en') {
    try {
      const r = await fetch(`/i18n/${wanted}.json`);
      if (!r.ok) throw new Error(r.statusText);
      strings = await r.json();
      lang = wanted;
    } catch {
      strings = fallback;
    }
  }
  document.documentElement.lang = lang;
}

// setLanguage keeps the choice and starts the page again in it.
export function setLanguage(code) {
  localStorage.setItem(STORE, code);
  location.reload();
}

// COUNTS are the parameters that count something, in the order a string's
// form is chosen by: "{n} moves" has a form for one, "{n} move".
const COUNTS = ['plays', 'games', 'total', 'n'];

// pluralKey returns key's form for the count in params: KEY.one where the
// language's rules (Intl.PluralRules) call the count "one" and the
// language's file has that form (French's "one" is 0 and 1, Chinese has
// none); else KEY, which is the form for every other count.
function pluralKey(key, params) {
  if (!params) return key;
  const name = COUNTS.find((c) => typeof params[c] === 'number');
  if (name === undefined) return key;
  const form = key + '.' + new Intl.PluralRules(lang).select(params[name]);
  return form in strings ? form : key;
}

// t returns the string of key with {name} replaced by params.name, in the
// form for the count of params (pluralKey).
export function t(key, params) {
  key = pluralKey(key, params);
  let str = strings[key] ?? fallback[key];
  if (str === undefined) {
    console.warn('i18n: missing key', key);
    missing.add(key);
    str = key;
  } else if (!(key in strings)) {
    missing.add(key); // shown in English: a hole in the language's file
  }
  if (params) str = str.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  return str;
}

// has reports whether a key exists (for keys made from data: methods, variants).
export function has(key) {
  return key in strings || key in fallback;
}

// translate fills the elements of root that carry data-i18n.
export function translate(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
}

export function language() {
  return lang;
}

// missingKeys are the keys asked for that the language lacks (for tests).
export function missingKeys() {
  return [...missing];
}
