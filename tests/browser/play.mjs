// Plays the page of `solver render PUZZLE -o PAGE.html` as a person would,
// in headless Chromium: drags a block one cell with the mouse, asks for a
// hint, then asks for hints until the goal, and reports what the page showed
// as one JSON line on stdout (the moves made, in the solution format, for
// `solver verify`; the page's console errors; the screenshots taken).
//
//   node play.mjs PAGE.html OUT_DIR NAME
//
// The browser is $CHROMIUM or /usr/bin/chromium (playwright-core drives it;
// nothing is downloaded).
import { chromium } from "playwright-core";
import path from "node:path";

const [page_file, out_dir, name] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const report = { errors: [], screenshots: [], hints: 0, dragged: false };
try {
  const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
  page.on("console", (m) => { if (m.type() === "error") report.errors.push(m.text()); });
  page.on("pageerror", (e) => report.errors.push(String(e)));
  await page.goto("file://" + path.resolve(page_file));
  await page.waitForSelector("body[data-ready=solver]", { timeout: 20000 });
  const shot = async (what) => {
    const file = path.join(out_dir, `${name}-${what}.png`);
    await page.screenshot({ path: file });
    report.screenshots.push(file);
  };
  const move = async () => Number(await page.getAttribute("body", "data-move"));
  await shot("start");

  // One cell in screen pixels, from the board's scale.
  const cell = await page.evaluate(() => {
    const svg = document.querySelector("#board svg");
    return Number(svg.dataset.cell) * svg.getScreenCTM().a;
  });
  // Drag each block in each direction until one moves.
  const count = await page.locator("g.block").count();
  drag: for (let i = 0; i < count; i++) {
    const box = await page.locator(`g.block[data-instance="${i}"] > path:not(.slider)`).boundingBox();
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const x = box.x + Math.min(box.width, cell) / 2, y = box.y + Math.min(box.height, cell) / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      for (let s = 1; s <= 4; s++) await page.mouse.move(x + dx * cell * s / 4, y + dy * cell * s / 4);
      await page.mouse.up();
      const m = await move();
      if (m === 1) { report.dragged = true; break drag; }
    }
  }
  report.after_drag = await move();

  const hint = async () => {
    const before = await move();
    await page.click("#hint");
    await page.waitForFunction(() => document.body.dataset.hint !== "busy");
    report.hints++;
    report.last_status = await page.textContent("#status");
    return (await move()) === before + 1;
  };
  report.first_hint_moved = await hint();
  report.first_hint_status = report.last_status;
  await shot("hint");
  while ((await page.getAttribute("body", "data-solved")) !== "yes" && report.hints < 400) {
    if (!(await hint())) break;
  }
  await page.waitForTimeout(300);
  await shot("goal");
  report.solved = (await page.getAttribute("body", "data-solved")) === "yes";
  report.steps = Number(await page.getAttribute("body", "data-steps"));
  report.moves_count = Number(await page.getAttribute("body", "data-moves"));
  report.moves = await page.inputValue("#moves-out");

  // The editor: a wall painted on a free cell, then a new block 'z'; the
  // solver in the page parses the text each time and redraws the board.
  await page.click("#edit-toggle");
  await page.waitForTimeout(500);  // the blocks slide back to the start
  // Centres of the cells where a click reaches the board's cell itself
  // (no block over it); `outside_goal`: none of the goal's cells either.
  const free_cells = (outside_goal) => page.evaluate((outside) => {
    const goals = [...document.querySelectorAll("#board svg g.goal path")].map((g) => g.getBoundingClientRect());
    const found = [];
    document.querySelectorAll("#board svg rect.cell").forEach((r) => {
      const b = r.getBoundingClientRect(), x = b.x + b.width / 2, y = b.y + b.height / 2;
      const in_goal = goals.some((g) => x > g.left && x < g.right && y > g.top && y < g.bottom);
      if (document.elementFromPoint(x, y) === r && !(outside && in_goal)) found.push([x, y]);
    });
    return found;
  }, outside_goal);
  const walls = () => page.locator("#board svg rect.wall").count();
  report.walls_before = await walls();
  // A wall where the goal needs no block: a free cell outside the goal, else
  // a unit block's cell (Classic's free cells are both in its goal).
  let spot = (await free_cells(true))[0] || await page.evaluate(() => {
    const goals = [...document.querySelectorAll("#board svg g.goal path")].map((g) => g.getBoundingClientRect());
    for (const p of document.querySelectorAll('#board svg g.block[data-cells="0,0"] path')) {
      const b = p.getBoundingClientRect(), x = b.x + b.width / 2, y = b.y + b.height / 2;
      if (!goals.some((g) => x > g.left && x < g.right && y > g.top && y < g.bottom)) return [x, y];
    }
    return null;
  });
  await page.mouse.click(spot[0], spot[1]);
  report.walls_after = await walls();
  await page.check("input[name=tool][value=letter]");
  await page.fill("#letter", "z");
  spot = (await free_cells(false))[0];
  await page.mouse.click(spot[0], spot[1]);
  report.new_blocks = await page.locator('#board svg g.block[data-type="z"]').count();
  report.edit_error = await page.textContent("#edit-error");
  report.edited_text = await page.inputValue("#text");
  await shot("edit");
} finally {
  await browser.close();
}
console.log(JSON.stringify(report));
