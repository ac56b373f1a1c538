// The SVG writer's output looks the same in resvg (our PNGs) and in a browser (headless
// Chromium): a page of handwriting on lined paper, compared pixel by pixel with a tolerance.
import { PNG } from 'pngjs';
import { CHROMIUM, chromiumAvailable, launchChromium } from '../helpers/chromium.ts';
import t from 'tap';
import { bundledChain, bundledFontSource } from '../helpers/fonts.ts';
import { parseTemplate, type Style } from '../../src/domain/template.ts';
import { renderText } from '../../src/render/page/document.ts';
import { writePng } from '../../src/render/index.ts';
import { resvgRasterizer as raster } from '../../workers/resvg.ts';
import { pageToSvg } from '../../src/render/write/svg.ts';
import { bundledFontId } from '../../src/domain/fonts.ts';

/** Pixels whose channels differ by more than 64 of 255 (anti-aliasing differs at edges) may number at most 5 % of the ink pixels. */
const CHANNEL = 64;
const SHARE = 0.05;

t.test(
  'resvg and Chromium draw the same page',
  { skip: !chromiumAvailable && !process.env.CI && `no Chromium at ${CHROMIUM}` },
  async (t) => {
    t.ok(chromiumAvailable, `Chromium at ${CHROMIUM}`);
    const parsed = parseTemplate({
      version: 2,
      name: 'cmp',
      mode: 'simple',
      style: {
        fontId: bundledFontId('caveat'),
        fontSize: 20,
        pageSize: { name: 'card', width: 600, height: 400, unit: 'px' },
        paper: { type: 'lined', marginRule: { enabled: true } },
        margins: { top: 10, right: 10, bottom: 10, left: 25 },
      },
    });
    if (!parsed.ok) throw new Error(parsed.message);
    const style = (parsed.template as { style: Style }).style;
    const list = renderText({
      style,
      text: 'Dear friend,\nthe same letters, the same rules, in a browser and on the server. नमस्ते',
      fonts: bundledChain(bundledFontSource('caveat')),
    });
    const page = list.pages[0]!;
    const ours = PNG.sync.read(Buffer.from(writePng(list, page, 96, { raster })));

    const browser = await launchChromium();
    t.teardown(() => browser.close());
    const tab = await browser.newPage({
      viewport: { width: ours.width, height: ours.height },
      deviceScaleFactor: 1,
    });
    await tab.setContent(
      `<!doctype html><html><body style="margin:0">${pageToSvg(list, page)}</body></html>`,
    );
    const theirs = PNG.sync.read(
      await tab.screenshot({ type: 'png', clip: { x: 0, y: 0, width: ours.width, height: ours.height } }),
    );
    t.same([theirs.width, theirs.height], [ours.width, ours.height], 'same size');
    /** Share of pixels that differ when `theirs` is read `dx` pixels to the right. */
    const differing = (dx: number) => {
      let differ = 0;
      for (let y = 0; y < ours.height; y++) {
        for (let x = 0; x + dx < ours.width; x++) {
          const i = (y * ours.width + x) * 4;
          const j = (y * ours.width + x + dx) * 4;
          for (let c = 0; c < 3; c++) {
            if (Math.abs(ours.data[i + c]! - theirs.data[j + c]!) > CHANNEL) {
              differ++;
              break;
            }
          }
        }
      }
      return differ / ink;
    };
    let ink = 0;
    for (let i = 0; i < ours.data.length; i += 4) if (ours.data[i + 2]! < 150 && ours.data[i]! < 120) ink++;
    t.ok(ink > 500, `there is writing to compare (${ink} ink pixels)`);
    const share = differing(0);
    t.ok(
      share <= SHARE,
      `differing pixels: ${(share * 100).toFixed(2)} % of the ink (at most ${SHARE * 100} %)`,
    );
    const shifted = differing(3);
    t.ok(
      shifted > SHARE,
      `the comparison sees a 3-pixel shift (${(shifted * 100).toFixed(0)} % of the ink): it can fail`,
    );
  },
);
