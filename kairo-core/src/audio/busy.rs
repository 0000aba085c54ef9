//! The audio workload of `kairo bench audio` and of the unit's tests: all 8 channels busy.

/// An audio unit with all 8 channels busy (fast notes on every waveform with envelopes,
/// vibrato, arpeggio and slides), and the library its song is in.
pub fn busy_audio() -> (super::AudioUnit, super::AudioLibrary) {
    use super::mml::{Pos, compile};
    use super::{AudioLibrary, Song};
    let tracks = [
        "t200 @0 E1,2,10,2 V30,60 o4 l16 L [c e g > c < g e]",
        "t200 @1 A4,7 o5 l16 L [c d e f g a b > c <]",
        "t200 @2 S12 o3 l16 L [c c g g]",
        "t200 @3 o4 l16 p-50 L [e g b g]",
        "t200 @4 o2 l8 L [c g c g]",
        "t200 @5 V20,40 o4 l16 p50 L [a > c e c <]",
        "t200 @6 E0,3,0,2 o5 l16 L [c c c c]",
        "t200 @8 W0123456789abcdeffedcba9876543210 o4 l16 L [c e c e]",
    ];
    let song = Song {
        tracks: tracks
            .iter()
            .enumerate()
            .map(|(c, t)| {
                (
                    c,
                    std::sync::Arc::new(compile(t, Pos { line: 1, column: 1 }).expect("valid MML")),
                )
            })
            .collect(),
    };
    let mut library = AudioLibrary::default();
    library.songs.insert("busy".into(), song);
    let mut unit = super::AudioUnit::default();
    unit.play_music(&library, "busy").expect("the song exists");
    (unit, library)
}
