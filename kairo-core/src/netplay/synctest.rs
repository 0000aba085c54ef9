//! GGRS's sync test on a session: every frame it goes back `distance` frames and plays them
//! again, comparing the machine's checksum of each frame with the first time round. A cart
//! (or a machine) that does not come out the same after a rollback fails it, with the
//! frames that differ.

use ggrs::{GgrsError, SessionBuilder};

use super::rollback::{Checksums, Rollback, RollbackStats};
use super::{KairoGgrs, MAX_ROLLBACK, NetError};
use crate::movie::Movie;
use crate::session::Session;

/// Plays `vblanks` vblanks of `movie` (its first `players` players' words) on `game` under
/// the sync test, going back `distance` frames (1 to 7) every frame. Returns what rollback
/// cost.
pub fn run(
    game: &mut Session,
    movie: &Movie,
    vblanks: usize,
    players: usize,
    distance: usize,
) -> Result<RollbackStats, NetError> {
    let mut sync = SessionBuilder::<KairoGgrs>::new()
        .with_num_players(players)?
        .with_max_prediction_window(MAX_ROLLBACK)
        .with_check_distance(distance)
        .with_input_delay(0)
        .start_synctest_session()?;
    let mut rollback = Rollback::new(Checksums::Every);
    for n in 0..vblanks {
        let words = movie.input(n).0;
        for (player, &word) in words.iter().enumerate().take(players) {
            sync.add_local_input(player, word)?;
        }
        let requests = match sync.advance_frame() {
            Ok(requests) => requests,
            Err(GgrsError::MismatchedChecksum {
                mismatched_frames, ..
            }) => {
                return Err(NetError::SyncTest {
                    frames: mismatched_frames,
                });
            }
            Err(e) => return Err(e.into()),
        };
        rollback.fulfil(game, requests, &mut |_, _, _| {});
    }
    Ok(rollback.stats)
}
