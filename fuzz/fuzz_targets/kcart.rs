//! Fuzz target `kcart`: the body is `kairo::fuzz::kcart` (src/fuzz.rs), which
//! tests/fuzz_regressions.rs also runs on every saved input.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| kairo::fuzz::kcart(data));
