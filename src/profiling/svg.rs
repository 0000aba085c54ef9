//! `kairo profile --svg`: a chart of the run. Each frame is a bar stacked by unit in the
//! units' colours, against the 100 % budget line; slowdown frames get a red band and a mark
//! above the plot. Axes are labelled in percent of the budget and frame numbers; the legend
//! gives each unit's mean. Runs longer than the plot is wide show the busiest frame of each
//! column, so no peak disappears.

use std::fmt::Write;

use super::{history::Summary, unit_color};
use crate::meter::Unit;
use crate::profile::FrameProfile;
use crate::spec::FRAME_BUDGET;

const WIDTH: f64 = 1000.0;
const HEIGHT: f64 = 440.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 170.0;
const TOP: f64 = 48.0;
const BOTTOM: f64 = 48.0;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A step of 1, 2 or 5 times a power of ten giving at most `max_ticks` ticks over `span`.
fn tick_step(span: f64, max_ticks: f64) -> f64 {
    let raw = (span / max_ticks).max(1.0);
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|step| *step >= raw)
        .unwrap_or(10.0 * magnitude)
}

/// The chart of `frames` (in order) for cart `cart`.
pub fn chart(cart: &str, frames: &[&FrameProfile], summary: &Summary) -> String {
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let budget = FRAME_BUDGET as f64;
    let peak = frames.iter().map(|p| p.total()).max().unwrap_or(0) as f64;
    // The y axis reaches at least 125 % of the budget, in steps of a quarter budget.
    let y_max = (peak * 1.05 / (budget / 4.0)).ceil().max(5.0) * budget / 4.0;
    let y = |cycles: f64| TOP + plot_h - cycles / y_max * plot_h;

    // Columns: one per frame, or the busiest frame of each group when there are more frames
    // than pixels.
    let columns = frames.len().min(plot_w as usize).max(1);
    let per_column = frames.len().div_ceil(columns).max(1);
    let shown: Vec<&FrameProfile> = frames
        .chunks(per_column)
        .filter_map(|group| group.iter().copied().max_by_key(|p| p.total()))
        .collect();
    let bar_w = plot_w / shown.len().max(1) as f64;
    let first_frame = frames.first().map_or(0, |p| p.frame) as f64;
    let last_frame = frames.last().map_or(0, |p| p.frame) as f64;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(
        s,
        r##"<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>"##
    );
    let total = summary.bucket("total").copied().unwrap_or_default();
    let _ = writeln!(
        s,
        r##"<text x="{LEFT}" y="20" font-size="15" font-weight="bold" fill="#202020">Kairo profile: {} ({} frames, {} slowdown, mean {:.1}%, peak {:.1}% of budget)</text>"##,
        escape(cart),
        summary.frames,
        summary.slowdowns.len(),
        total.mean_load(),
        total.max_load()
    );
    let _ = writeln!(
        s,
        r##"<text x="{LEFT}" y="36" fill="#606060">cycles per frame by unit; budget {FRAME_BUDGET} cycles = 100 %</text>"##
    );

    // Slowdown bands behind the bars.
    for (i, p) in shown.iter().enumerate() {
        if p.slowed_down() {
            // At least 4 px wide, so a single slow frame in a long run still shows.
            let w = bar_w.max(4.0);
            let x = LEFT + (i as f64 + 0.5) * bar_w - w / 2.0;
            let _ = writeln!(
                s,
                r##"<rect class="slowdown" x="{x:.2}" y="{TOP}" width="{w:.2}" height="{plot_h}" fill="#ffd8d8"/>"##
            );
        }
    }

    // Y grid and labels, every quarter or half budget.
    let step = if y_max > 3.0 * budget {
        budget / 2.0
    } else {
        budget / 4.0
    };
    let mut level = 0.0;
    while level <= y_max + 0.5 {
        let yy = y(level);
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#e4e4e4"/>"##,
            LEFT + plot_w
        );
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#404040">{:.0}%</text>"##,
            LEFT - 6.0,
            yy + 4.0,
            level / budget * 100.0
        );
        level += step;
    }

    // Stacked bars: one path per unit.
    for unit in Unit::ALL {
        let mut path = String::new();
        for (i, p) in shown.iter().enumerate() {
            let below: u64 = Unit::ALL
                .iter()
                .take_while(|u| **u != unit)
                .map(|u| p.unit(*u))
                .sum();
            let cycles = p.unit(unit);
            if cycles == 0 {
                continue;
            }
            let x = LEFT + i as f64 * bar_w;
            let top = y((below + cycles) as f64);
            let h = y(below as f64) - top;
            let _ = write!(path, "M{x:.2} {top:.2}h{:.2}v{h:.2}h{:.2}z", bar_w, -bar_w);
        }
        if !path.is_empty() {
            let _ = writeln!(
                s,
                r##"<path class="unit-{}" d="{path}" fill="#{:06x}" shape-rendering="crispEdges"/>"##,
                unit.name(),
                unit_color(unit)
            );
        }
    }

    // Budget line.
    let by = y(budget);
    let _ = writeln!(
        s,
        r##"<line class="budget" x1="{LEFT}" y1="{by:.1}" x2="{:.1}" y2="{by:.1}" stroke="#d02020" stroke-width="1.5" stroke-dasharray="6 4"/>"##,
        LEFT + plot_w
    );
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#d02020">budget (100 %)</text>"##,
        LEFT + plot_w - 4.0,
        by - 5.0
    );

    // Slowdown marks above the plot.
    for (i, p) in shown.iter().enumerate() {
        if p.slowed_down() {
            let x = LEFT + (i as f64 + 0.5) * bar_w;
            let _ = writeln!(
                s,
                r##"<path class="slowdown-mark" d="M{:.2} {:.1}l4 -7h-8z" fill="#d02020"><title>frame {}: {} vblanks, {:.1}%</title></path>"##,
                x,
                TOP - 2.0,
                p.frame,
                p.vblanks,
                p.load()
            );
        }
    }

    // Axes.
    let _ = writeln!(
        s,
        r##"<path d="M{LEFT} {TOP}V{:.1}H{:.1}" fill="none" stroke="#202020"/>"##,
        TOP + plot_h,
        LEFT + plot_w
    );
    let span = (last_frame - first_frame).max(1.0);
    let step = tick_step(span, 10.0);
    let mut tick = (first_frame / step).ceil() * step;
    while tick <= last_frame {
        let x = LEFT + (tick - first_frame + 0.5) / (span + 1.0) * plot_w;
        let base = TOP + plot_h;
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{base:.1}" x2="{x:.1}" y2="{:.1}" stroke="#202020"/><text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="#404040">{tick:.0}</text>"##,
            base + 5.0,
            base + 18.0
        );
        tick += step;
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#404040">frame</text>"##,
        LEFT + plot_w / 2.0,
        HEIGHT - 10.0
    );
    let _ = writeln!(
        s,
        r##"<text transform="translate(16 {:.1}) rotate(-90)" text-anchor="middle" fill="#404040">% of budget</text>"##,
        TOP + plot_h / 2.0
    );

    // Legend, top unit first as in the stack.
    let lx = LEFT + plot_w + 16.0;
    for (row, unit) in Unit::ALL.iter().rev().enumerate() {
        let ly = TOP + 24.0 + row as f64 * 20.0;
        let mean = summary.bucket(unit.name()).copied().unwrap_or_default();
        let _ = writeln!(
            s,
            r##"<rect x="{lx:.1}" y="{:.1}" width="12" height="12" fill="#{:06x}"/><text x="{:.1}" y="{:.1}" fill="#202020">{} {:.1}%</text>"##,
            ly - 10.0,
            unit_color(*unit),
            lx + 18.0,
            ly,
            unit.name(),
            mean.mean_load()
        );
    }
    let ly = TOP + 24.0 + 6.0 * 20.0 + 8.0;
    let _ = writeln!(
        s,
        r##"<rect x="{lx:.1}" y="{:.1}" width="12" height="12" fill="#ffd8d8"/><text x="{:.1}" y="{ly:.1}" fill="#202020">slowdown</text>"##,
        ly - 10.0,
        lx + 18.0
    );
    s.push_str("</svg>\n");
    s
}
