//! The bullet unit's table as text: live bullets and free slots, shots and targets, the
//! last step's counters, the live count of each bullet type in use (with its tile), and the
//! BulletML sources running (id, position, bullet type, looping).

use super::image::{Image, LINE_H, colors};
use crate::bullets::table::NO_PROGRAM;
use crate::bullets::unit::{SHOT_CAPACITY, SOURCE_CAPACITY, TYPES};
use crate::fixed::fx_to_f64;
use crate::machine::Machine;
use crate::spec::{SCREEN_H, SCREEN_W, TILE_SIZE};

/// A source as the view lists it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SourceLine {
    pub id: i64,
    pub x: f64,
    pub y: f64,
    pub kind: u8,
    pub looping: bool,
}

/// The bullet table summed up.
#[derive(Clone, Debug, PartialEq)]
pub struct BulletSummary {
    pub live: usize,
    pub capacity: usize,
    /// Live bullets of each type.
    pub per_type: [usize; TYPES],
    /// Live bullets running a BulletML program of their own.
    pub with_program: usize,
    pub shots: usize,
    pub targets: usize,
    pub sources: Vec<SourceLine>,
}

impl BulletSummary {
    pub fn of(machine: &Machine) -> BulletSummary {
        let unit = &machine.bullets();
        let mut per_type = [0; TYPES];
        for &kind in &unit.table().kind {
            per_type[usize::from(kind) % TYPES] += 1;
        }
        BulletSummary {
            live: unit.table().len(),
            capacity: unit.table().capacity(),
            per_type,
            with_program: unit
                .table()
                .program
                .iter()
                .filter(|&&p| p != NO_PROGRAM)
                .count(),
            shots: unit.shots().len(),
            targets: unit.targets().len(),
            sources: unit
                .sources()
                .iter()
                .map(|s| SourceLine {
                    id: s.id,
                    x: fx_to_f64(s.x),
                    y: fx_to_f64(s.y),
                    kind: s.kind,
                    looping: s.looping,
                })
                .collect(),
        }
    }

    /// Free slots in the table.
    pub fn free(&self) -> usize {
        self.capacity.saturating_sub(self.live)
    }

    /// The summary as text lines (the view draws them).
    pub fn lines(&self, machine: &Machine) -> Vec<String> {
        let stats = &machine.bullets().stats();
        let mut lines = vec![
            format!(
                "bullets {} / {}  free {}",
                self.live,
                self.capacity,
                self.free()
            ),
            format!(
                "shots {} / {}  targets {}",
                self.shots, SHOT_CAPACITY, self.targets
            ),
            format!(
                "with programs {}  rank {:.2}",
                self.with_program,
                machine.bullets().rank()
            ),
            format!(
                "last step: +{} dropped {} graze {} hit {}",
                stats.spawned, stats.dropped, stats.grazes, stats.hits
            ),
            String::new(),
            "type  live  tile size pal".into(),
        ];
        let types: Vec<String> = self
            .per_type
            .iter()
            .enumerate()
            .filter(|(_, n)| **n > 0)
            .map(|(kind, &n)| {
                let look = machine.bullets().types()[kind];
                format!(
                    "{kind:>4} {n:>5}   {:03X}  {}x{}   {:X}",
                    look.tile, look.size, look.size, look.palette
                )
            })
            .collect();
        if types.is_empty() {
            lines.push("   - none".into());
        }
        lines.extend(types);
        lines.push(String::new());
        lines.push(format!(
            "sources {} / {}",
            self.sources.len(),
            SOURCE_CAPACITY
        ));
        lines.push("  id      x      y type".into());
        lines.extend(self.sources.iter().map(|s| {
            format!(
                "{:>4} {:>6.1} {:>6.1} {:>4}{}",
                s.id,
                s.x,
                s.y,
                s.kind,
                if s.looping { " loop" } else { "" }
            )
        }));
        lines
    }
}

/// The bullet table drawn as a 256x256 page of text; lines that do not fit end in a count
/// of the rest.
pub(crate) fn bullet_view(machine: &Machine) -> Image {
    let summary = BulletSummary::of(machine);
    let lines = summary.lines(machine);
    let mut image = Image::new(SCREEN_W, SCREEN_H, colors::BACKGROUND);
    let fit = (SCREEN_H - 2) / LINE_H;
    let shown = if lines.len() > fit {
        fit - 1
    } else {
        lines.len()
    };
    for (i, line) in lines.iter().take(shown).enumerate() {
        let dim = line.starts_with("type") || line.starts_with("  id");
        image.text(
            2,
            1 + i * LINE_H,
            line,
            if dim { colors::DIM } else { colors::TEXT },
        );
    }
    if shown < lines.len() {
        image.text(
            2,
            1 + shown * LINE_H,
            &format!("... {} more lines", lines.len() - shown),
            colors::DIM,
        );
    }
    // Beside each type line, the type's tile in its palette.
    for (i, line) in lines.iter().take(shown).enumerate() {
        let Some(kind) = type_of_line(line) else {
            continue;
        };
        let look = machine.bullets().types()[kind];
        for y in 0..TILE_SIZE {
            for x in 0..TILE_SIZE {
                let index = machine
                    .video()
                    .patterns()
                    .pixel(usize::from(look.tile), x, y)
                    & 0xF;
                let rgb = if index == 0 {
                    Image::checker(x, y)
                } else {
                    machine.video().palette().get(look.palette << 4 | index)
                };
                image.put(200 + x, i * LINE_H + y, rgb);
            }
        }
    }
    image
}

/// The bullet type a line of the type table is about.
fn type_of_line(line: &str) -> Option<usize> {
    let mut words = line.split_whitespace();
    let kind: usize = words.next()?.parse().ok()?;
    let _live: usize = words.next()?.parse().ok()?;
    let tile = words.next()?;
    (tile.len() == 3 && words.next()?.contains('x')).then_some(kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bullets::table::Spawn;

    #[test]
    fn live_bullets_are_counted_by_type_with_the_free_slots() {
        let mut machine = Machine::new(Default::default(), 0);
        for kind in [3, 3, 7] {
            machine.bullets_mut().table_mut().push(Spawn {
                kind,
                program: NO_PROGRAM,
                ..Spawn::default()
            });
        }
        let summary = BulletSummary::of(&machine);
        assert_eq!(summary.live, 3);
        assert_eq!(summary.free(), summary.capacity - 3);
        assert_eq!((summary.per_type[3], summary.per_type[7]), (2, 1));
        let lines = summary.lines(&machine);
        assert_eq!(
            lines[0],
            format!(
                "bullets 3 / {0}  free {1}",
                summary.capacity,
                summary.capacity - 3
            )
        );
        assert!(lines.iter().any(|l| l == "   3     2   000  1x1   0"));
        assert!(lines.iter().any(|l| l == "sources 0 / 64"));
        assert_eq!(type_of_line("   3     2   000  1x1   0"), Some(3));
        assert_eq!(type_of_line("sources 0 / 64"), None);
    }
}
