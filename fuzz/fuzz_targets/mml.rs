//! Fuzz target `mml`: the body is `kairo::harness::fuzz::mml` (src/tools/fuzz.rs), which
//! tests/fuzz_regressions.rs also runs on every saved input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| kairo::harness::fuzz::mml(data));
