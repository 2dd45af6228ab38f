// A Web Storage for the app's Node tests (localStorage, sessionStorage): the Web API's methods,
// keys in insertion order; `full = true` makes setItem throw as a full disk does.
export class FakeStorage {
  constructor(entries = []) { this.map = new Map(entries); this.full = false; }
  get length() { return this.map.size; }
  key(i) { return [...this.map.keys()][i] ?? null; }
  getItem(k) { return this.map.has(k) ? this.map.get(k) : null; }
  setItem(k, v) {
    if (this.full) throw Object.assign(new Error('quota'), { name: 'QuotaExceededError' });
    this.map.set(k, String(v));
  }
  removeItem(k) { this.map.delete(k); }
}
