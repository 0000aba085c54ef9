//! The text report `kairo profile` prints: a table of buckets (mean, p95 and max cycles per
//! frame, and as a share of the budget), the slowdown frames, the most expensive Lua
//! functions and the cart's sections, then the host's real time on its own line.

use std::fmt::Write;

use super::history::{BucketStats, Summary};
use crate::spec::FRAME_BUDGET;

/// Functions listed in the report.
pub const TOP_FUNCTIONS: usize = 10;
/// Slowdown frames listed by number before the rest are counted.
const LISTED_SLOWDOWNS: usize = 20;

/// The report for `summary` of cart `name`; `host_fps` is how fast the host ran it.
pub fn text(name: &str, summary: &Summary, host_fps: Option<f64>) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "kairo profile: {name}: {} frames in {} vblanks, budget {FRAME_BUDGET} cycles per frame",
        summary.frames, summary.vblanks
    );
    out.push('\n');
    let _ = writeln!(out, "{}", header("bucket"));
    for row in &summary.buckets {
        let name = format!("{}{}", "  ".repeat(usize::from(row.depth)), row.name);
        let _ = writeln!(out, "{}", bucket_line(&name, &row.stats));
    }
    out.push('\n');

    if summary.slowdowns.is_empty() {
        out.push_str("slowdown frames: none\n");
    } else {
        let listed: Vec<String> = summary
            .slowdowns
            .iter()
            .take(LISTED_SLOWDOWNS)
            .map(|s| format!("{} ({} vblanks, {:.0}%)", s.frame, s.vblanks, s.load))
            .collect();
        let more = summary.slowdowns.len().saturating_sub(LISTED_SLOWDOWNS);
        let _ = writeln!(
            out,
            "slowdown frames: {}: {}{}",
            summary.slowdowns.len(),
            listed.join(", "),
            if more > 0 {
                format!(", ... {more} more")
            } else {
                String::new()
            }
        );
    }

    match summary.frames_dropping_sprites.as_slice() {
        [] => {}
        frames => {
            let listed: Vec<String> = frames
                .iter()
                .take(LISTED_SLOWDOWNS)
                .map(u64::to_string)
                .collect();
            let more = frames.len().saturating_sub(LISTED_SLOWDOWNS);
            let _ = writeln!(
                out,
                "sprites dropped (all 256 OAM entries showing): {} in {} frames: {}{}",
                summary.sprites_dropped,
                frames.len(),
                listed.join(", "),
                if more > 0 {
                    format!(", ... {more} more")
                } else {
                    String::new()
                }
            );
        }
    }

    if !summary.functions.is_empty() {
        out.push_str("\nscript by function (cycles over all frames):\n");
        for f in summary.functions.iter().take(TOP_FUNCTIONS) {
            let _ = writeln!(out, "  {:>10} {:>6.1}%  {}", f.cycles, f.share, f.name);
        }
        let more = summary.functions.len().saturating_sub(TOP_FUNCTIONS);
        if more > 0 {
            let _ = writeln!(out, "  ... {more} more");
        }
    }

    if !summary.sections.is_empty() {
        out.push_str("\nsections (cycles per frame they ran in):\n");
        let _ = writeln!(out, "{}  calls/frames", header("section"));
        for s in &summary.sections {
            let _ = writeln!(
                out,
                "{}  {}/{}",
                bucket_line(&s.name, &s.stats),
                s.calls,
                s.frames
            );
        }
    }

    let h = &summary.host_us;
    let _ = write!(
        out,
        "\nhost time (real time on this computer, not part of the budget), mean per frame: \
         script {:.1} us, bullets {:.1} us, video {:.1} us, audio {:.1} us, all {:.1} us",
        h[0], h[1], h[2], h[3], h[4]
    );
    if let Some(fps) = host_fps {
        let _ = write!(out, "; ran at {fps:.0} frames/s");
    }
    out.push('\n');
    out
}

/// The column titles over [`bucket_line`]s, `first` naming the first column.
fn header(first: &str) -> String {
    format!(
        "{:<16} {:>9} {:>9} {:>9} {:>7} {:>7} {:>7}",
        first, "mean", "p95", "max", "mean%", "p95%", "max%"
    )
}

fn bucket_line(name: &str, s: &BucketStats) -> String {
    format!(
        "{:<16} {:>9.0} {:>9} {:>9} {:>6.1}% {:>6.1}% {:>6.1}%",
        name,
        s.mean,
        s.p95,
        s.max,
        s.mean_load(),
        s.p95_load(),
        s.max_load()
    )
}
