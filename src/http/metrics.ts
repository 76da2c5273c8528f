import type { EngineStats } from "../core/ops/stats.js";

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function labels(pairs: Record<string, string>): string {
  const parts = Object.entries(pairs).map(([k, v]) => `${k}="${escapeLabel(v)}"`);
  return parts.length > 0 ? `{${parts.join(",")}}` : "";
}

function num(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return String(v);
}

interface Histogram {
  buckets: number[];
  sum: number;
  count: number;
}

/** Request counters and latency histograms, rendered in the Prometheus text exposition format (0.0.4). */
export class HttpMetrics {
  private readonly requests = new Map<string, { method: string; route: string; status: string; count: number }>();
  private readonly durations = new Map<string, Histogram>();
  private rateLimited = 0;
  private authFailures = 0;
  private hostRejected = 0;
  readonly startedAt = Date.now();

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    const r = this.requests.get(key) ?? { method, route, status: String(status), count: 0 };
    r.count++;
    this.requests.set(key, r);
    const h = this.durations.get(route) ?? { buckets: BUCKETS.map(() => 0), sum: 0, count: 0 };
    BUCKETS.forEach((le, i) => {
      if (seconds <= le) h.buckets[i] = (h.buckets[i] ?? 0) + 1;
    });
    h.sum += seconds;
    h.count++;
    this.durations.set(route, h);
  }

  countRateLimited(): void {
    this.rateLimited++;
  }

  countAuthFailure(): void {
    this.authFailures++;
  }

  countHostRejected(): void {
    this.hostRejected++;
  }

  render(stats: EngineStats | null): string {
    const out: string[] = [];
    const family = (name: string, type: string, help: string) => out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);

    family("hindsight_http_requests_total", "counter", "HTTP requests by method, route and status.");
    for (const r of [...this.requests.values()].sort((a, b) => `${a.route}${a.method}${a.status}`.localeCompare(`${b.route}${b.method}${b.status}`))) {
      out.push(`hindsight_http_requests_total${labels({ method: r.method, route: r.route, status: r.status })} ${r.count}`);
    }
    family("hindsight_http_request_duration_seconds", "histogram", "HTTP request duration by route.");
    for (const [route, h] of [...this.durations.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      BUCKETS.forEach((le, i) => out.push(`hindsight_http_request_duration_seconds_bucket${labels({ route, le: String(le) })} ${h.buckets[i] ?? 0}`));
      out.push(`hindsight_http_request_duration_seconds_bucket${labels({ route, le: "+Inf" })} ${h.count}`);
      out.push(`hindsight_http_request_duration_seconds_sum${labels({ route })} ${num(h.sum)}`);
      out.push(`hindsight_http_request_duration_seconds_count${labels({ route })} ${h.count}`);
    }
    family("hindsight_rate_limited_total", "counter", "Requests answered 429 by the per-token rate limit.");
    out.push(`hindsight_rate_limited_total ${this.rateLimited}`);
    family("hindsight_auth_failures_total", "counter", "Requests answered 401 (missing or wrong bearer token).");
    out.push(`hindsight_auth_failures_total ${this.authFailures}`);
    family("hindsight_host_rejected_total", "counter", "Requests answered 403 by the Host check (DNS-rebinding protection).");
    out.push(`hindsight_host_rejected_total ${this.hostRejected}`);
    family("hindsight_start_time_seconds", "gauge", "When the server started (Unix time).");
    out.push(`hindsight_start_time_seconds ${Math.floor(this.startedAt / 1000)}`);

    if (stats) {
      const scope = stats.scope;
      family("hindsight_memories", "gauge", "Memories of the default scope by status.");
      for (const [status, n] of Object.entries(stats.byStatus)) out.push(`hindsight_memories${labels({ scope, status })} ${n}`);
      family("hindsight_active_memories_by_layer", "gauge", "Active memories of the default scope by layer.");
      for (const [layer, n] of Object.entries(stats.byLayer)) out.push(`hindsight_active_memories_by_layer${labels({ scope, layer })} ${n}`);
      family("hindsight_active_memories_by_type", "gauge", "Active memories of the default scope by type.");
      for (const [type, n] of Object.entries(stats.byType)) out.push(`hindsight_active_memories_by_type${labels({ scope, type })} ${n}`);
      family("hindsight_recall_latency_seconds", "summary", "Recall latency over the last recalls (all scopes).");
      if (stats.recall.p50Ms !== null) out.push(`hindsight_recall_latency_seconds${labels({ quantile: "0.5" })} ${num(stats.recall.p50Ms / 1000)}`);
      if (stats.recall.p95Ms !== null) out.push(`hindsight_recall_latency_seconds${labels({ quantile: "0.95" })} ${num(stats.recall.p95Ms / 1000)}`);
      out.push(`hindsight_recall_latency_seconds_sum ${num(stats.recall.sumMs / 1000)}`);
      out.push(`hindsight_recall_latency_seconds_count ${stats.recall.count}`);
      if (stats.recallCache) {
        family("hindsight_recall_cache_hits_total", "counter", "Recalls this replica answered from the shared cache.");
        out.push(`hindsight_recall_cache_hits_total ${stats.recallCache.hits}`);
        family("hindsight_recall_cache_misses_total", "counter", "Recalls this replica computed (and then cached).");
        out.push(`hindsight_recall_cache_misses_total ${stats.recallCache.misses}`);
        family("hindsight_recall_cache_saved_seconds_total", "counter", "Recall time the cache hits saved, against the mean computed recall.");
        out.push(`hindsight_recall_cache_saved_seconds_total ${num(stats.recallCache.savedMs / 1000)}`);
      }
    }
    return `${out.join("\n")}\n`;
  }
}
