import { chromium, type Browser } from "playwright-core";

const CHROMIUM = process.env.HINDSIGHT_CHROMIUM ?? "/usr/bin/chromium";
// The callback of page.evaluate runs in the browser; the project compiles without the DOM library.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const DOMParser: any;

/** What a browser's XML parser sees in an SVG document. */
export interface ParsedSvg {
  /** The parser's error text, or null when the document is well-formed XML. */
  error: string | null;
  root: string;
  namespace: string | null;
  title: string;
  /** data-series of every series group, in document order. */
  series: string[];
  /** Bars per series: their group and value as written, and their drawn height. */
  bars: Record<string, Array<{ group: string; value: number; height: number }>>;
  /** Groups drawn as "n/a" per series. */
  missing: Record<string, string[]>;
  /** Text of the y-axis tick labels. */
  ticks: string[];
  legend: string[];
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
}

/** Parses SVG text with the browser's DOMParser (strict XML: a single error yields a parsererror document). */
export async function parseSvg(browser: Browser, svg: string): Promise<ParsedSvg> {
  const page = await browser.newPage();
  try {
    /* eslint-disable @typescript-eslint/no-explicit-any */
    return await page.evaluate((text: string) => {
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      const err = doc.getElementsByTagName("parsererror")[0];
      const root = doc.documentElement;
      const bars: Record<string, Array<{ group: string; value: number; height: number }>> = {};
      const missing: Record<string, string[]> = {};
      const series: string[] = [];
      for (const g of Array.from<any>(root.querySelectorAll("g.series"))) {
        const name = g.getAttribute("data-series") ?? "";
        series.push(name);
        bars[name] = Array.from<any>(g.querySelectorAll("rect.bar")).map((r) => ({
          group: r.getAttribute("data-group") ?? "",
          value: Number(r.getAttribute("data-value")),
          height: Number(r.getAttribute("height")),
        }));
        missing[name] = Array.from<any>(g.querySelectorAll("text.na")).map((t) => t.getAttribute("data-group") ?? "");
      }
      return {
        error: err ? (err.textContent ?? "parsererror") : null,
        root: root.localName,
        namespace: root.namespaceURI,
        title: root.querySelector("title")?.textContent ?? "",
        series,
        bars,
        missing,
        ticks: Array.from<any>(root.querySelectorAll("g.y-axis text.tick")).map((t) => t.textContent ?? ""),
        legend: Array.from<any>(root.querySelectorAll("g.legend-item")).map((g) => g.getAttribute("data-series") ?? ""),
      };
    }, svg);
    /* eslint-enable @typescript-eslint/no-explicit-any */
  } finally {
    await page.close();
  }
}
