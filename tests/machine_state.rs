//! `Machine` is the hardware and nothing else, and it round-trips through serde: along both
//! bundled carts' movies the machine is written out (postcard), read back, checked equal by
//! writing it again, and put back in place of the running one every few hundred vblanks.
//! The golden frame hashes must come out unchanged, so nothing the machine needs lives
//! outside it or is lost on the way. (The cart's Lua state is a later issue's: here the same
//! Lua state runs on, so this checks the machine's side exactly.)

mod common;

use common::{bundled, root};
use kairo::cart::Cart;
use kairo::console::Console;
use kairo::machine::Machine;
use kairo::movie::Movie;

/// The golden hashes of a bundled cart: (vblank, hash).
fn golden(cart: &str) -> Vec<(u64, String)> {
    std::fs::read_to_string(root().join("tests/golden").join(format!("{cart}.hashes")))
        .expect("golden hashes")
        .lines()
        .map(|l| {
            let (n, hash) = l.split_once(' ').expect("`vblank hash`");
            (n.parse().expect("vblank"), hash.to_string())
        })
        .collect()
}

/// Writes the console's machine out and puts the copy read back in its place; returns the
/// size of the state.
fn round_trip(console: &mut Console) -> usize {
    let bytes = postcard::to_stdvec(console.machine()).expect("the machine serializes");
    let copy: Machine = postcard::from_bytes(&bytes).expect("the machine deserializes");
    let again = postcard::to_stdvec(&copy).expect("the copy serializes");
    assert!(
        again == bytes,
        "the copy differs from the machine it was read from"
    );
    *console.machine_mut() = copy;
    bytes.len()
}

fn play_with_round_trips(cart: &str, movie: &str, every: u64) {
    let movie = Movie::load(&root().join("tests/movies").join(movie)).expect("movie");
    let golden = golden(cart);
    let last = golden.last().expect("checkpoints").0;
    let mut console = Console::new(Cart::open(&bundled(cart)).expect("cart")).expect("boots");
    let mut largest = 0;
    let mut hashes = Vec::new();
    for n in 0..last {
        // Odd offsets too, so states are taken mid-slowdown and mid-pattern.
        if n % every == 0 || n % every == every / 3 {
            largest = largest.max(round_trip(&mut console));
        }
        console
            .tick(movie.input(n as usize))
            .unwrap_or_else(|e| panic!("{cart} faulted at vblank {n}: {e}"));
        console.take_log();
        console.take_audio();
        if golden.iter().any(|(v, _)| *v == n + 1) {
            hashes.push((n + 1, kairo::hash::frame_hash_hex(&console.rgba())));
        }
    }
    assert_eq!(hashes, golden, "{cart}: frames after round trips");
    eprintln!("{cart}: largest machine state {largest} bytes");
}

#[test]
fn the_platformer_runs_on_through_machine_round_trips() {
    play_with_round_trips("platformer", "platformer.kmv", 300);
}

#[test]
fn the_shmup_runs_on_through_machine_round_trips() {
    play_with_round_trips("shmup", "shmup.kmv", 300);
}
