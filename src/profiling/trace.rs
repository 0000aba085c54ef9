//! `kairo profile --trace`: the run as Chrome trace-event JSON, which Perfetto
//! (ui.perfetto.dev) and chrome://tracing open. Time is the machine's virtual time: a vblank
//! is 1/60 s and a cycle 1/6 µs (the 6 MHz virtual CPU), so a frame's unit slices fill its
//! vblank exactly when it uses the whole budget. Tracks: `frames` (one slice per frame,
//! slowdown frames named so and marked with an instant event), one per unit, one per section,
//! and a `load %` counter.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::meter::Unit;
use crate::profile::FrameProfile;
use crate::spec::{FRAME_BUDGET, FRAME_RATE};

/// Process id used for every event.
const PID: u32 = 1;
/// Thread id of the frames track; units follow at 1..=6, sections from 100.
const FRAMES_TID: u32 = 0;
const SECTIONS_TID: u32 = 100;

/// Microseconds of one vblank.
fn vblank_us() -> f64 {
    1e6 / f64::from(FRAME_RATE)
}

/// Microseconds of virtual time `cycles` take.
fn cycles_us(cycles: u64) -> f64 {
    cycles as f64 * vblank_us() / FRAME_BUDGET as f64
}

fn thread_name(tid: u32, name: &str, order: u32) -> [Value; 2] {
    [
        json!({"ph": "M", "pid": PID, "tid": tid, "name": "thread_name", "args": {"name": name}}),
        json!({"ph": "M", "pid": PID, "tid": tid, "name": "thread_sort_index",
               "args": {"sort_index": order}}),
    ]
}

/// The trace of `frames` (in order) for cart `cart`, as a JSON document.
pub fn document<'a>(cart: &str, frames: impl Iterator<Item = &'a FrameProfile>) -> String {
    let mut events: Vec<Value> = vec![json!({
        "ph": "M", "pid": PID, "tid": FRAMES_TID, "name": "process_name",
        "args": {"name": format!("kairo: {cart}")}
    })];
    events.extend(thread_name(FRAMES_TID, "frames", 0));
    for (i, unit) in Unit::ALL.iter().enumerate() {
        events.extend(thread_name(1 + i as u32, unit.name(), 1 + i as u32));
    }
    let mut section_tids: BTreeMap<String, u32> = BTreeMap::new();
    let mut vblank = 0u64;
    for p in frames {
        let ts = vblank as f64 * vblank_us();
        let slow = p.slowed_down();
        let name = if slow {
            format!("frame {} (slowdown: {} vblanks)", p.frame, p.vblanks)
        } else {
            format!("frame {}", p.frame)
        };
        let mut args = serde_json::Map::new();
        args.insert("cycles".into(), json!(p.total()));
        args.insert("load".into(), json!((p.load() * 10.0).round() / 10.0));
        for (unit, cycles) in p.units.iter() {
            args.insert(unit.name().into(), json!(cycles));
        }
        events.push(json!({
            "ph": "X", "pid": PID, "tid": FRAMES_TID, "name": name,
            "cat": if slow { "slowdown" } else { "frame" },
            "ts": ts, "dur": f64::from(p.vblanks) * vblank_us(), "args": args,
        }));
        if slow {
            events.push(json!({
                "ph": "i", "s": "g", "pid": PID, "tid": FRAMES_TID, "name": "slowdown",
                "ts": ts, "args": {"frame": p.frame, "vblanks": p.vblanks}
            }));
        }
        for (i, (unit, cycles)) in p.units.iter().enumerate() {
            if cycles == 0 {
                continue;
            }
            events.push(json!({
                "ph": "X", "pid": PID, "tid": 1 + i as u32, "name": unit.name(), "cat": "unit",
                "ts": ts, "dur": cycles_us(cycles), "args": {"cycles": cycles, "frame": p.frame}
            }));
        }
        for s in &p.sections {
            let next = SECTIONS_TID + section_tids.len() as u32;
            let tid = *section_tids.entry(s.name.to_string()).or_insert(next);
            if tid == next {
                events.extend(thread_name(tid, &format!("section {}", s.name), tid));
            }
            events.push(json!({
                "ph": "X", "pid": PID, "tid": tid, "name": &*s.name, "cat": "section",
                "ts": ts, "dur": cycles_us(s.cycles.total()),
                "args": {"cycles": s.cycles.total(), "calls": s.calls, "frame": p.frame}
            }));
        }
        events.push(json!({
            "ph": "C", "pid": PID, "tid": FRAMES_TID, "name": "load %", "ts": ts,
            "args": {"load": (p.load() * 10.0).round() / 10.0}
        }));
        vblank += u64::from(p.vblanks);
    }
    let doc = json!({
        "traceEvents": events,
        "displayTimeUnit": "ms",
        "otherData": {"cart": cart, "budget": FRAME_BUDGET, "clock": "virtual (1 vblank = 1/60 s)"},
    });
    serde_json::to_string(&doc).expect("JSON values always serialize")
}
