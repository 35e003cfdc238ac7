// The tiny i18n layer: every visible string is t(KEY, {params}), the
// strings live in i18n/LANG.json. To add a language, add its file and its
// code to LANGUAGES; missing keys fall back to English.

const LANGUAGES = ['en'];
const FALLBACK = '/i18n/en.json';

let strings = {};
let fallback = {};
let lang = 'en';

export async function loadLocale() {
  fallback = await (await fetch(FALLBACK)).json();
  strings = fallback;
  const wanted = (localStorage.getItem('morris.lang') || navigator.language || 'en').slice(0, 2).toLowerCase();
  if (wanted !== 'en' && LANGUAGES.includes(wanted)) {
    try {
      strings = await (await fetch(`/i18n/${wanted}.json`)).json();
      lang = wanted;
    } catch {
      strings = fallback;
    }
  }
  document.documentElement.lang = lang;
}

// t returns the string of key with {name} replaced by params.name.
export function t(key, params) {
  let str = strings[key] ?? fallback[key];
  if (str === undefined) {
    console.warn('i18n: missing key', key);
    str = key;
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
