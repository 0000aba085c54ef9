//! `kairo profile --json`: every profiled frame as JSON (units by name, video parts, Lua
//! functions, sections, host time) followed by the run's summary. The format is described
//! in `docs/profiling.md`.

use serde_json::{Map, Value, json};

use super::history::Summary;
use crate::meter::{Unit, UnitCycles};
use crate::profile::FrameProfile;
use crate::spec::FRAME_BUDGET;

/// Version of the JSON layout, bumped when a field changes meaning.
pub const FORMAT_VERSION: u32 = 1;

fn units(cycles: &UnitCycles) -> Value {
    let map: Map<String, Value> = Unit::ALL
        .iter()
        .map(|&u| (u.name().to_string(), json!(cycles.get(u))))
        .collect();
    Value::Object(map)
}

/// Host microseconds to one decimal (the clock is not more precise than that).
fn tenths(us: f32) -> f64 {
    (f64::from(us) * 10.0).round() / 10.0
}

/// One frame as JSON.
pub fn frame(p: &FrameProfile) -> Value {
    json!({
        "frame": p.frame,
        "vblanks": p.vblanks,
        "cycles": p.total(),
        "load": p.load(),
        "units": units(&p.units),
        "video": {
            "layers": p.video.layers,
            "sprites": p.video.sprites,
            "writes": p.video.writes,
        },
        "sprites_dropped": p.sprites_dropped,
        "functions": p.functions.iter().map(|(name, cycles)| json!({
            "name": &**name,
            "cycles": cycles,
        })).collect::<Vec<_>>(),
        "sections": p.sections.iter().map(|s| json!({
            "name": &*s.name,
            "calls": s.calls,
            "cycles": s.cycles.total(),
            "units": units(&s.cycles),
        })).collect::<Vec<_>>(),
        "host_us": {
            "script": tenths(p.host.script_us),
            "bullets": tenths(p.host.bullets_us),
            "video": tenths(p.host.video_us),
            "audio": tenths(p.host.audio_us),
        },
    })
}

/// The whole run as a JSON document.
pub fn document<'a>(
    cart: &str,
    frames: impl Iterator<Item = &'a FrameProfile>,
    summary: &Summary,
) -> String {
    let doc = json!({
        "format": "kairo-profile",
        "version": FORMAT_VERSION,
        "cart": cart,
        "budget": FRAME_BUDGET,
        "frames": frames.map(frame).collect::<Vec<_>>(),
        "summary": summary,
    });
    serde_json::to_string_pretty(&doc).expect("JSON values always serialize")
}
