// Scrapes a /metrics endpoint and reads it with a real Prometheus text-format parser (parse-prometheus-text-format,
// the parser of the npm ecosystem). It folds a labelled histogram into one label-less sample (its open issue #13),
// so `series` also reads the body with the histograms' TYPE lines dropped: their `_bucket`, `_sum` and `_count`
// lines then parse as samples of their own, labels kept.
import assert from 'node:assert/strict';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

export type Families = ReturnType<typeof parsePrometheusTextFormat>;
export interface Scrape {
  /** The families as the parser reads the body (names, types, help). */
  families: Families;
  /** The same body with histogram TYPE lines dropped: every line a labelled sample. */
  series: Families;
}

export async function scrape(url: string, token: string): Promise<Scrape> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return {
    families: parsePrometheusTextFormat(text),
    series: parsePrometheusTextFormat(text.replace(/^# TYPE \S+ histogram\n/gm, '')),
  };
}

export function family(scraped: Scrape, name: string) {
  const found = scraped.families.find((f) => f.name === name);
  assert.ok(found, `${name} is exposed`);
  return found;
}

/** The value of `name`'s sample whose labels include `labels`; 0 when there is none (yet). */
export function sample(scraped: Scrape, name: string, labels: Record<string, string> = {}): number {
  // A histogram's series alternate (buckets, sum, count of one label set, then the next): one family each time.
  const found = scraped.series
    .filter((f) => f.name === name)
    .flatMap((f) => f.metrics)
    .find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return found ? Number(found.value) : 0;
}
