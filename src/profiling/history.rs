//! Profiled frames kept for the overlay's graph (the last 240) or a whole `kairo profile`
//! run, and the statistics drawn from them: mean, 95th percentile and peak per bucket, the
//! slowdown frames, the most expensive Lua functions and the cart's sections.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use crate::meter::Unit;
use crate::profile::FrameProfile;
use crate::spec::FRAME_BUDGET;

/// Frames the window's overlay keeps (4 seconds).
pub const OVERLAY_FRAMES: usize = 240;

/// The most recent profiled frames, oldest first.
#[derive(Clone, Debug)]
pub struct History {
    frames: VecDeque<FrameProfile>,
    capacity: usize,
}

impl History {
    /// Keeps the last `capacity` frames.
    pub fn new(capacity: usize) -> History {
        History {
            frames: VecDeque::with_capacity(capacity.min(4096)),
            capacity: capacity.max(1),
        }
    }

    /// Keeps every frame.
    pub(crate) fn unbounded() -> History {
        History::new(usize::MAX)
    }

    pub fn push(&mut self, frame: FrameProfile) {
        if self.frames.len() == self.capacity {
            self.frames.pop_front();
        }
        self.frames.push_back(frame);
    }

    pub fn clear(&mut self) {
        self.frames.clear();
    }

    pub fn len(&self) -> usize {
        self.frames.len()
    }

    pub fn is_empty(&self) -> bool {
        self.frames.is_empty()
    }

    /// The frames, oldest first.
    pub fn frames(&self) -> impl DoubleEndedIterator<Item = &FrameProfile> + ExactSizeIterator {
        self.frames.iter()
    }

    /// The `i`-th frame kept (0 = oldest).
    pub fn get(&self, i: usize) -> Option<&FrameProfile> {
        self.frames.get(i)
    }

    /// The newest frame.
    pub fn last(&self) -> Option<&FrameProfile> {
        self.frames.back()
    }

    /// The last `n` frames, oldest first.
    pub(crate) fn recent(&self, n: usize) -> impl Iterator<Item = &FrameProfile> {
        self.frames.iter().skip(self.frames.len().saturating_sub(n))
    }

    /// Statistics over all frames kept.
    pub fn summary(&self) -> Summary {
        Summary::of(self.frames.iter())
    }
}

/// Mean, 95th percentile and maximum of one bucket's cycles per frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct BucketStats {
    pub mean: f64,
    pub p95: u64,
    pub max: u64,
}

impl BucketStats {
    /// Statistics of `values` (cycles per frame).
    pub fn of(values: &mut [u64]) -> BucketStats {
        if values.is_empty() {
            return BucketStats::default();
        }
        values.sort_unstable();
        let n = values.len();
        // Nearest rank: the smallest value at or above 95 % of the frames.
        let rank = (n * 95).div_ceil(100).max(1);
        BucketStats {
            mean: values.iter().sum::<u64>() as f64 / n as f64,
            p95: values[rank - 1],
            max: values[n - 1],
        }
    }

    /// Mean in percent of the budget.
    pub(crate) fn mean_load(&self) -> f64 {
        self.mean * 100.0 / FRAME_BUDGET as f64
    }

    /// p95 in percent of the budget.
    pub(crate) fn p95_load(&self) -> f64 {
        self.p95 as f64 * 100.0 / FRAME_BUDGET as f64
    }

    /// Maximum in percent of the budget.
    pub fn max_load(&self) -> f64 {
        self.max as f64 * 100.0 / FRAME_BUDGET as f64
    }
}

/// One row of the bucket table: a unit, or (indented) a part of one.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct BucketRow {
    pub name: String,
    /// 0 for units and the total, 1 for parts of a unit.
    pub depth: u8,
    pub stats: BucketStats,
}

/// A script function's cycles over the frames summed up.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct FunctionRow {
    pub name: Arc<str>,
    pub cycles: u64,
    /// Share of all script cycles, in percent.
    pub share: f64,
}

/// A section over the frames summed up.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SectionRow {
    pub name: Arc<str>,
    /// Times it was closed.
    pub calls: u64,
    /// Frames it appeared in.
    pub frames: u64,
    /// Cycles per frame it appeared in.
    pub stats: BucketStats,
}

/// A slowed-down frame.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Slowdown {
    pub frame: u64,
    pub vblanks: u32,
    pub load: f64,
}

/// Statistics over a run of frames.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Summary {
    pub frames: u64,
    pub vblanks: u64,
    /// Total, then each unit followed by its parts.
    pub buckets: Vec<BucketRow>,
    pub slowdowns: Vec<Slowdown>,
    /// Script functions, most expensive first.
    pub functions: Vec<FunctionRow>,
    /// Sections, most expensive (mean) first.
    pub sections: Vec<SectionRow>,
    /// Mean host microseconds per frame: script, bullets, video, audio, all.
    pub host_us: [f64; 5],
    /// Sprites `sprite` could not draw (OAM full), and the frames where that happened.
    pub sprites_dropped: u64,
    pub frames_dropping_sprites: Vec<u64>,
}

impl Summary {
    /// Statistics over `frames`.
    pub fn of<'a>(frames: impl Iterator<Item = &'a FrameProfile>) -> Summary {
        let list: Vec<&FrameProfile> = frames.collect();
        let n = list.len() as u64;
        let column = |f: &dyn Fn(&FrameProfile) -> u64| -> BucketStats {
            BucketStats::of(&mut list.iter().map(|p| f(p)).collect::<Vec<_>>())
        };
        let mut buckets = vec![BucketRow {
            name: "total".into(),
            depth: 0,
            stats: column(&|p| p.total()),
        }];
        for unit in Unit::ALL {
            buckets.push(BucketRow {
                name: unit.name().into(),
                depth: 0,
                stats: column(&|p| p.unit(unit)),
            });
            if unit == Unit::Video {
                let parts = list.first().map(|p| p.video.parts()).unwrap_or_default();
                for (i, (name, _)) in parts.iter().enumerate() {
                    buckets.push(BucketRow {
                        name: name.clone(),
                        depth: 1,
                        stats: column(&|p| p.video.parts()[i].1),
                    });
                }
            }
        }

        let slowdowns = list
            .iter()
            .filter(|p| p.slowed_down())
            .map(|p| Slowdown {
                frame: p.frame,
                vblanks: p.vblanks,
                load: p.load(),
            })
            .collect();

        let mut by_function: BTreeMap<Arc<str>, u64> = BTreeMap::new();
        for p in &list {
            for (name, cycles) in &p.functions {
                *by_function.entry(name.clone()).or_default() += cycles;
            }
        }
        let script_total: u64 = by_function.values().sum();
        let mut functions: Vec<FunctionRow> = by_function
            .into_iter()
            .map(|(name, cycles)| FunctionRow {
                name,
                cycles,
                share: cycles as f64 * 100.0 / script_total.max(1) as f64,
            })
            .collect();
        functions.sort_by(|a, b| b.cycles.cmp(&a.cycles).then_with(|| a.name.cmp(&b.name)));

        let mut by_section: BTreeMap<Arc<str>, (u64, Vec<u64>)> = BTreeMap::new();
        for p in &list {
            for s in &p.sections {
                let entry = by_section.entry(s.name.clone()).or_default();
                entry.0 += u64::from(s.calls);
                entry.1.push(s.cycles.total());
            }
        }
        let mut sections: Vec<SectionRow> = by_section
            .into_iter()
            .map(|(name, (calls, mut per_frame))| SectionRow {
                name,
                calls,
                frames: per_frame.len() as u64,
                stats: BucketStats::of(&mut per_frame),
            })
            .collect();
        sections.sort_by(|a, b| {
            b.stats
                .mean
                .total_cmp(&a.stats.mean)
                .then_with(|| a.name.cmp(&b.name))
        });

        let mut host_us = [0.0; 5];
        for p in &list {
            let h = &p.host;
            for (slot, v) in host_us.iter_mut().zip([
                h.script_us,
                h.bullets_us,
                h.video_us,
                h.audio_us,
                h.total_us(),
            ]) {
                *slot += f64::from(v);
            }
        }
        for slot in &mut host_us {
            *slot /= n.max(1) as f64;
        }

        Summary {
            frames: n,
            vblanks: list.iter().map(|p| u64::from(p.vblanks)).sum(),
            buckets,
            slowdowns,
            functions,
            sections,
            host_us,
            sprites_dropped: list.iter().map(|p| u64::from(p.sprites_dropped)).sum(),
            frames_dropping_sprites: list
                .iter()
                .filter(|p| p.sprites_dropped > 0)
                .map(|p| p.frame)
                .collect(),
        }
    }

    /// The row of bucket `name` (a unit name, a part name or "total").
    pub fn bucket(&self, name: &str) -> Option<&BucketStats> {
        self.buckets
            .iter()
            .find(|b| b.name == name)
            .map(|b| &b.stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meter::UnitCycles;

    fn frame(n: u64, script: u64) -> FrameProfile {
        let mut units = UnitCycles::default();
        units.add(Unit::Script, script);
        FrameProfile {
            frame: n,
            vblanks: crate::meter::vblanks_for(script),
            units,
            functions: vec![(Arc::from("update (main.lua:1)"), script)],
            ..FrameProfile::default()
        }
    }

    #[test]
    fn percentile_is_nearest_rank() {
        let mut values: Vec<u64> = (1..=100).collect();
        let stats = BucketStats::of(&mut values);
        assert_eq!(stats.p95, 95);
        assert_eq!(stats.max, 100);
        assert_eq!(stats.mean, 50.5);
        assert_eq!(BucketStats::of(&mut [7]).p95, 7);
        assert_eq!(BucketStats::of(&mut []), BucketStats::default());
    }

    #[test]
    fn history_keeps_the_newest_frames() {
        let mut h = History::new(3);
        for n in 0..5 {
            h.push(frame(n, 10 * n));
        }
        let kept: Vec<u64> = h.frames().map(|p| p.frame).collect();
        assert_eq!(kept, [2, 3, 4]);
        assert_eq!(h.recent(2).map(|p| p.frame).collect::<Vec<_>>(), [3, 4]);
    }

    #[test]
    fn summary_finds_slowdowns_and_sums_functions() {
        let mut h = History::unbounded();
        h.push(frame(0, 1000));
        h.push(frame(1, 250_000));
        h.push(frame(2, 3000));
        let s = h.summary();
        assert_eq!(s.frames, 3);
        assert_eq!(s.vblanks, 5);
        assert_eq!(
            s.slowdowns,
            [Slowdown {
                frame: 1,
                vblanks: 3,
                load: 250.0
            }]
        );
        assert_eq!(s.functions[0].cycles, 254_000);
        assert_eq!(s.bucket("script").unwrap().max, 250_000);
        assert_eq!(s.bucket("total").unwrap().max, 250_000);
    }
}
