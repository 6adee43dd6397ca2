/** One sample of Prometheus' text exposition format: `name{label="value",...} 12`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

/** Parses what GET /metrics answers (comments and blank lines skipped). */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`not a metrics line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? "").matchAll(LABEL)) labels[key!] = value!.replace(/\\n/g, "\n").replace(/\\(["\\])/g, "$1");
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample named `name` whose labels include `labels`; 0 when there is none (a counter never incremented). */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}: name more labels`);
  return found[0]?.value ?? 0;
}

/** GET /metrics at `url`, parsed. */
export async function scrape(url: string): Promise<{ text: string; samples: Sample[] }> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  if (!response.headers.get("content-type")?.startsWith("text/plain")) throw new Error(`${url} is not Prometheus text`);
  const text = await response.text();
  return { text, samples: parseMetrics(text) };
}
