//! Carrying out GGRS's requests on a [`Session`]: save a snapshot of the console (with the
//! machine's checksum where GGRS compares them), load one (going back), and advance one
//! vblank with every player's word. Counts what going back costs: rollbacks, frames played
//! again and the host time they took.

use std::time::{Duration, Instant};

use ggrs::{GgrsRequest, InputStatus};

use super::KairoGgrs;
use crate::input::InputFrame;
use crate::session::{Session, Vblank};
use crate::spec::PLAYERS;

/// What rollback has cost so far.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RollbackStats {
    /// Frames advanced, first plays and replays together.
    pub(crate) advanced: u64,
    /// Times the console went back.
    pub rollbacks: u64,
    /// Frames played again after going back.
    pub resimulated: u64,
    /// The most frames played again after one rollback.
    pub longest: u64,
    /// Frames played again after the last rollback.
    pub last: u64,
    /// Host time spent playing frames again.
    pub resimulating: Duration,
    /// The most host time one host frame's requests took (saves, a rollback, replays and
    /// the new frame): under 16.7 ms keeps the game at 60 frames a second.
    pub worst_step: Duration,
}

/// When checksums are taken of saved frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checksums {
    /// Every saved frame (the sync test compares them all).
    Every,
    /// Frames that are a multiple of this (GGRS compares those between peers).
    EveryNth(u32),
}

/// Keeps a session in step with GGRS.
#[derive(Debug)]
pub struct Rollback {
    pub stats: RollbackStats,
    checksums: Checksums,
    /// The vblank GGRS's frame 0 is.
    base: u64,
    /// The furthest vblank the session has reached: frames up to it are replays.
    furthest: u64,
    /// Frames played again since the last rollback.
    replaying: u64,
}

impl Rollback {
    pub fn new(checksums: Checksums) -> Rollback {
        Rollback::starting_at(checksums, 0)
    }

    /// Keeps in step a session that stands at vblank `base` when GGRS is at its frame 0.
    pub fn starting_at(checksums: Checksums, base: u64) -> Rollback {
        Rollback {
            stats: RollbackStats::default(),
            checksums,
            base,
            furthest: base,
            replaying: 0,
        }
    }

    /// Carries out `requests` on `game` in order. `after_frame` sees the session after every
    /// vblank advanced with what the vblank produced, told whether it was a replay (a frame
    /// played before, whose sound was already heard).
    pub(crate) fn fulfil(
        &mut self,
        game: &mut Session,
        requests: Vec<GgrsRequest<KairoGgrs>>,
        after_frame: &mut dyn FnMut(&Session, Vblank, bool),
    ) {
        let start = Instant::now();
        for request in requests {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => {
                    debug_assert_eq!(frame as u64 + self.base, game.console().vblanks());
                    let mut snapshot = cell
                        .data()
                        .map(|mut old| std::mem::take(old.as_mut_dangerous()))
                        .unwrap_or_default();
                    game.snapshot_into(&mut snapshot);
                    let checksum = match self.checksums {
                        Checksums::Every => Some(game.machine_checksum()),
                        Checksums::EveryNth(n) if (frame as u32).is_multiple_of(n) => {
                            Some(game.machine_checksum())
                        }
                        Checksums::EveryNth(_) => None,
                    };
                    cell.save(frame, Some(snapshot), checksum);
                }
                GgrsRequest::LoadGameState { cell, .. } => {
                    let snapshot = cell.data().expect("GGRS loads only frames it had saved");
                    game.rollback(&snapshot)
                        .expect("snapshots of this session restore into it");
                    self.stats.rollbacks += 1;
                    self.stats.last = 0;
                    self.replaying = 0;
                }
                GgrsRequest::AdvanceFrame { inputs } => {
                    let mut words = [0; PLAYERS];
                    for (word, (input, status)) in words.iter_mut().zip(&inputs) {
                        if *status != InputStatus::Disconnected {
                            *word = *input;
                        }
                    }
                    let replay = game.console().vblanks() < self.furthest;
                    let start = replay.then(Instant::now);
                    // A fault stays in the session; going back before it undoes it.
                    let vblank = game.tick(InputFrame(words));
                    after_frame(game, vblank, replay);
                    if let Some(start) = start {
                        self.stats.resimulating += start.elapsed();
                        self.stats.resimulated += 1;
                        self.replaying += 1;
                        self.stats.last = self.replaying;
                        self.stats.longest = self.stats.longest.max(self.replaying);
                    }
                    self.stats.advanced += 1;
                    self.furthest = self.furthest.max(game.console().vblanks());
                }
            }
        }
        self.stats.worst_step = self.stats.worst_step.max(start.elapsed());
    }
}
